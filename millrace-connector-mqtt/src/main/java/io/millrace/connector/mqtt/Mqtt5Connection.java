package io.millrace.connector.mqtt;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5ClientBuilder;
import com.hivemq.client.mqtt.mqtt5.datatypes.Mqtt5UserProperties;
import com.hivemq.client.mqtt.mqtt5.datatypes.Mqtt5UserProperty;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5ConnAckException;
import com.hivemq.client.mqtt.mqtt5.message.connect.Mqtt5ConnectBuilder;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAck;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.Mqtt5RetainHandling;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.Mqtt5Subscribe;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.Mqtt5Subscription;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.suback.Mqtt5SubAckReasonCode;
import io.millrace.api.time.Clock;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** {@link MqttConnection} over MQTT 5 with the HiveMQ client. */
final class Mqtt5Connection implements MqttConnection {
    private final MqttServer server;
    private final String clientId;
    private final Mqtt5AsyncClient client;

    Mqtt5Connection(MqttServer server, String clientId, boolean libraryReconnects, Consumer<Incoming> onMessage,
            Consumer<Throwable> onLost, Clock clock) {
        this.server = server;
        this.clientId = clientId;
        Mqtt5ClientBuilder b = MqttClient.builder().useMqttVersion5().identifier(clientId).serverHost(server.host()).serverPort(server.port());
        if (libraryReconnects) {
            b = b.automaticReconnect().initialDelay(server.reconnectInitial().toMillis(), TimeUnit.MILLISECONDS)
                    .maxDelay(server.reconnectMax().toMillis(), TimeUnit.MILLISECONDS).applyAutomaticReconnect();
        }
        b = b.addDisconnectedListener(ctx -> {
            if (!libraryReconnects) {
                ctx.getReconnector().reconnect(false);
            } else if (ctx instanceof com.hivemq.client.mqtt.mqtt5.lifecycle.Mqtt5ClientDisconnectedContext c5) {
                // a run starts clean; its reconnects resume the session, so that what was in flight is sent again
                var reconnector = c5.getReconnector();
                if (reconnector.getConnect().isCleanStart()) {
                    reconnector.connect(reconnector.getConnect().extend().cleanStart(false).build());
                }
                reconnector.republishIfSessionExpired(true);
            }
            onLost.accept(ctx.getCause());
        });
        this.client = b.buildAsync();
        if (onMessage != null) {
            // registered before connecting, so that what the broker sends again for a resumed session is acknowledged
            // by us, not by the library
            client.publishes(MqttGlobalPublishFilter.ALL, p -> onMessage.accept(incoming(p, clock)), true);
        }
    }

    private Incoming incoming(Mqtt5Publish p, Clock clock) {
        List<MqttMessage.UserProperty> props = new ArrayList<>();
        for (Mqtt5UserProperty u : p.getUserProperties().asList()) {
            props.add(new MqttMessage.UserProperty(u.getName().toString(), u.getValue().toString()));
        }
        MqttMessage m = new MqttMessage(p.getTopic().toString(), p.getPayloadAsBytes(), qos(p.getQos()), p.isRetain(), props, clientId,
                clock.millis());
        return new Incoming(m, p.getQos() == MqttQos.AT_MOST_ONCE ? null : p::acknowledge);
    }

    static Qos qos(MqttQos q) {
        return Qos.of(q.getCode(), "qos");
    }

    static MqttQos qos(Qos q) {
        return MqttQos.fromCode(q.level());
    }

    @Override
    public CompletableFuture<Boolean> connect(boolean cleanStart) {
        Mqtt5ConnectBuilder.Send<CompletableFuture<Mqtt5ConnAck>> c = client.connectWith()
                .cleanStart(cleanStart)
                .sessionExpiryInterval(server.sessionExpiry().toSeconds())
                .keepAlive((int) Math.min(65535, server.keepAlive().toSeconds()))
                .restrictions().receiveMaximum(server.receiveMaximum()).applyRestrictions();
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
                if (cause instanceof Mqtt5ConnAckException refused) {
                    throw new MqttRefusedException("the broker " + server + " refused client '" + clientId + "': "
                            + refused.getMqttMessage().getReasonCode() + refused.getMqttMessage().getReasonString().map(r -> " (" + r + ")").orElse("")
                            + " (check the server options: 'credentials', 'version')");
                }
                throw cause instanceof RuntimeException r ? r : new CompletionException(cause);
            }
            return ack.isSessionPresent();
        });
    }

    @Override
    public CompletableFuture<Void> subscribe(List<String> filters, Qos qos) {
        List<Mqtt5Subscription> subs = new ArrayList<>();
        for (String f : filters) {
            // a resumed session keeps its subscriptions: subscribing again must not resend the retained messages
            subs.add(Mqtt5Subscription.builder().topicFilter(f).qos(qos(qos))
                    .retainHandling(Mqtt5RetainHandling.SEND_IF_SUBSCRIPTION_DOES_NOT_EXIST).build());
        }
        return client.subscribe(Mqtt5Subscribe.builder().addSubscriptions(subs).build()).thenAccept(ack -> {
            List<Mqtt5SubAckReasonCode> codes = ack.getReasonCodes();
            for (int i = 0; i < codes.size(); i++) {
                if (codes.get(i).isError()) {
                    throw new MqttRefusedException("the broker " + server + " refused the subscription to '" + filters.get(i) + "' of client '"
                            + clientId + "': " + codes.get(i) + ack.getReasonString().map(r -> " (" + r + ")").orElse(""));
                }
            }
        });
    }

    @Override
    public CompletableFuture<Void> publish(String topic, byte[] payload, Qos qos, boolean retain, List<MqttMessage.UserProperty> properties) {
        var p = client.publishWith().topic(topic).payload(payload).qos(qos(qos)).retain(retain);
        if (!properties.isEmpty()) {
            var props = Mqtt5UserProperties.builder();
            for (MqttMessage.UserProperty u : properties) {
                props = props.add(u.name(), u.value());
            }
            p = p.userProperties(props.build());
        }
        return p.send().thenAccept(result -> {
            if (result.getError().isPresent()) {
                Throwable t = result.getError().get();
                throw t instanceof RuntimeException r ? r : new CompletionException(t);
            }
        });
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
