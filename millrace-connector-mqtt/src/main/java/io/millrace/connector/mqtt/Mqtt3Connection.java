package io.millrace.connector.mqtt;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt3.Mqtt3AsyncClient;
import com.hivemq.client.mqtt.mqtt3.Mqtt3ClientBuilder;
import com.hivemq.client.mqtt.mqtt3.exceptions.Mqtt3ConnAckException;
import com.hivemq.client.mqtt.mqtt3.message.connect.Mqtt3ConnectBuilder;
import com.hivemq.client.mqtt.mqtt3.message.connect.connack.Mqtt3ConnAck;
import com.hivemq.client.mqtt.mqtt3.message.publish.Mqtt3Publish;
import com.hivemq.client.mqtt.mqtt3.message.subscribe.Mqtt3Subscribe;
import com.hivemq.client.mqtt.mqtt3.message.subscribe.Mqtt3Subscription;
import com.hivemq.client.mqtt.mqtt3.message.subscribe.suback.Mqtt3SubAckReturnCode;
import io.millrace.api.time.Clock;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** {@link MqttConnection} over MQTT 3.1.1 with the HiveMQ client; user properties are not sent (3.1.1 has none). */
final class Mqtt3Connection implements MqttConnection {
    private final MqttServer server;
    private final String clientId;
    private final Mqtt3AsyncClient client;

    Mqtt3Connection(MqttServer server, String clientId, boolean libraryReconnects, Consumer<Incoming> onMessage,
            Consumer<Throwable> onLost, Clock clock) {
        this.server = server;
        this.clientId = clientId;
        Mqtt3ClientBuilder b = MqttClient.builder().useMqttVersion3().identifier(clientId).serverHost(server.host()).serverPort(server.port());
        if (libraryReconnects) {
            b = b.automaticReconnect().initialDelay(server.reconnectInitial().toMillis(), TimeUnit.MILLISECONDS)
                    .maxDelay(server.reconnectMax().toMillis(), TimeUnit.MILLISECONDS).applyAutomaticReconnect();
        }
        b = b.addDisconnectedListener(ctx -> {
            if (!libraryReconnects) {
                ctx.getReconnector().reconnect(false);
            } else if (ctx instanceof com.hivemq.client.mqtt.mqtt3.lifecycle.Mqtt3ClientDisconnectedContext c3) {
                // a run starts clean; its reconnects resume the session, so that what was in flight is sent again
                var reconnector = c3.getReconnector();
                if (reconnector.getConnect().isCleanSession()) {
                    reconnector.connect(reconnector.getConnect().extend().cleanSession(false).build());
                }
                reconnector.republishIfSessionExpired(true);
            }
            onLost.accept(ctx.getCause());
        });
        this.client = b.buildAsync();
        if (onMessage != null) {
            client.publishes(MqttGlobalPublishFilter.ALL, p -> onMessage.accept(incoming(p, clock)), true);
        }
    }

    private Incoming incoming(Mqtt3Publish p, Clock clock) {
        MqttMessage m = new MqttMessage(p.getTopic().toString(), p.getPayloadAsBytes(), Mqtt5Connection.qos(p.getQos()), p.isRetain(),
                List.of(), clientId, clock.millis());
        return new Incoming(m, p.getQos() == MqttQos.AT_MOST_ONCE ? null : p::acknowledge);
    }

    @Override
    public CompletableFuture<Boolean> connect(boolean cleanStart) {
        Mqtt3ConnectBuilder.Send<CompletableFuture<Mqtt3ConnAck>> c = client.connectWith()
                .cleanSession(cleanStart)
                .keepAlive((int) Math.min(65535, server.keepAlive().toSeconds()));
        if (server.username() != null) {
            var auth = c.simpleAuth().username(server.username());
            if (server.password() != null) {
                auth = auth.password(server.password().getBytes(StandardCharsets.UTF_8));
            }
            c = auth.applySimpleAuth();
        }
        return c.send().handle((ack, e) -> {
            if (e != null) {
                Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                if (cause instanceof Mqtt3ConnAckException refused) {
                    throw new MqttRefusedException("the broker " + server + " refused client '" + clientId + "': "
                            + refused.getMqttMessage().getReturnCode() + " (check the server options: 'credentials', 'version')");
                }
                throw cause instanceof RuntimeException r ? r : new CompletionException(cause);
            }
            return ack.isSessionPresent();
        });
    }

    @Override
    public CompletableFuture<Void> subscribe(List<String> filters, Qos qos) {
        List<Mqtt3Subscription> subs = new ArrayList<>();
        for (String f : filters) {
            subs.add(Mqtt3Subscription.builder().topicFilter(f).qos(Mqtt5Connection.qos(qos)).build());
        }
        return client.subscribe(Mqtt3Subscribe.builder().addSubscriptions(subs).build()).thenAccept(ack -> {
            List<Mqtt3SubAckReturnCode> codes = ack.getReturnCodes();
            for (int i = 0; i < codes.size(); i++) {
                if (codes.get(i).isError()) {
                    throw new MqttRefusedException("the broker " + server + " refused the subscription to '" + filters.get(i) + "' of client '"
                            + clientId + "': " + codes.get(i));
                }
            }
        });
    }

    @Override
    public CompletableFuture<Void> publish(String topic, byte[] payload, Qos qos, boolean retain, List<MqttMessage.UserProperty> properties) {
        return client.publishWith().topic(topic).payload(payload).qos(Mqtt5Connection.qos(qos)).retain(retain).send().thenAccept(p -> { });
    }

    @Override
    public void close() {
        try {
            client.disconnect().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            // not connected or already gone: nothing to close
        }
    }
}
