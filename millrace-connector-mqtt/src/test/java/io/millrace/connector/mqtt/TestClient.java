package io.millrace.connector.mqtt;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A plain HiveMQ client for the tests: publishes, prepares persistent sessions, and records what it receives. */
final class TestClient implements AutoCloseable {
    private final Mqtt5BlockingClient client;
    private final List<Mqtt5Publish> received = new ArrayList<>();

    private TestClient(Mqtt5BlockingClient client) {
        this.client = client;
    }

    /** A connected client with a clean session, recording every message it receives. */
    static TestClient connect(Mosquitto broker, String clientId) {
        Mqtt5BlockingClient c = MqttClient.builder().useMqttVersion5().identifier(clientId).serverHost("127.0.0.1")
                .serverPort(broker.port()).buildBlocking();
        TestClient t = new TestClient(c);
        c.toAsync().publishes(MqttGlobalPublishFilter.ALL, p -> {
            synchronized (t.received) {
                t.received.add(p);
            }
        });
        c.connectWith().cleanStart(true).send();
        return t;
    }

    /**
     * Creates the persistent session a source's client {@code clientId} will resume, subscribed to {@code filters},
     * so that the broker queues what is published before the job first connects; then disconnects.
     */
    static void prepareSession(Mosquitto broker, String clientId, int qos, String... filters) {
        Mqtt5BlockingClient c = MqttClient.builder().useMqttVersion5().identifier(clientId).serverHost("127.0.0.1")
                .serverPort(broker.port()).buildBlocking();
        c.connectWith().cleanStart(true).send();   // drops what an earlier session of this client id had
        c.disconnect();
        // Mosquitto 2.0.11 writes a session to its persistence file only when it was made without a clean start
        c.connectWith().cleanStart(false).sessionExpiryInterval(86_400).send();
        for (String f : filters) {
            c.subscribeWith().topicFilter(f).qos(MqttQos.fromCode(qos)).send();
        }
        c.disconnect();
    }

    /** {@link #prepareSession} for a client that speaks MQTT 3.1.1 ({@code cleanSession} false). */
    static void prepareSession311(Mosquitto broker, String clientId, int qos, String... filters) {
        prepareSession311(broker, clientId, null, null, qos, filters);
    }

    /** The same with a user name and password. */
    static void prepareSession311(Mosquitto broker, String clientId, String user, String password, int qos, String... filters) {
        com.hivemq.client.mqtt.mqtt3.Mqtt3BlockingClient c = MqttClient.builder().useMqttVersion3().identifier(clientId)
                .serverHost("127.0.0.1").serverPort(broker.port()).buildBlocking();
        if (user == null) {
            c.connectWith().cleanSession(false).send();
        } else {
            c.connectWith().cleanSession(false).simpleAuth().username(user).password(password.getBytes(StandardCharsets.UTF_8))
                    .applySimpleAuth().send();
        }
        for (String f : filters) {
            c.subscribeWith().topicFilter(f).qos(MqttQos.fromCode(qos)).send();
        }
        c.disconnect();
    }

    void subscribe(String filter, int qos) {
        client.subscribeWith().topicFilter(filter).qos(MqttQos.fromCode(qos)).send();
    }

    void publish(String topic, String payload, int qos) {
        publish(topic, payload.getBytes(StandardCharsets.UTF_8), qos, false);
    }

    void publish(String topic, byte[] payload, int qos, boolean retain) {
        client.publishWith().topic(topic).payload(payload).qos(MqttQos.fromCode(qos)).retain(retain).send();
    }

    List<Mqtt5Publish> received() {
        synchronized (received) {
            return new ArrayList<>(received);
        }
    }

    static String text(Mqtt5Publish p) {
        return new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        if (client.getState().isConnected()) {
            client.disconnect();
        }
    }
}
