package io.millrace.connector.mqtt;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One client connection to a broker, over either protocol version, with manual acknowledgement of received messages.
 * A connection is used once: after it is lost the source opens a new one (a new client object) rather than letting
 * the library reconnect, so that messages the broker sends again are delivered and acknowledged afresh.
 *
 * <p>The futures complete on the library's threads; {@code onMessage} and {@code onLost} are called there too.
 */
interface MqttConnection {
    /**
     * Connects, with a clean start or resuming the session of the client id; completes with whether the
     * broker had the session, or fails: with {@link MqttRefusedException} when the broker refused (bad credentials,
     * not authorized...), else with the network error.
     */
    CompletableFuture<Boolean> connect(boolean cleanStart);

    /** Subscribes to the filters at {@code qos}; fails with {@link MqttRefusedException} naming a refused filter. */
    CompletableFuture<Void> subscribe(List<String> filters, Qos qos);

    /** Publishes; completes when the broker acknowledged (QoS 1 and 2) or the message was sent (QoS 0). */
    CompletableFuture<Void> publish(String topic, byte[] payload, Qos qos, boolean retain, List<MqttMessage.UserProperty> properties);

    /** Disconnects normally (the session stays at the broker); never throws. */
    void close();

    /** A connection for a source or a sink; nothing is sent before {@link #connect}. */
    static MqttConnection create(MqttServer server, String clientId, boolean libraryReconnects, Consumer<Incoming> onMessage,
            Consumer<Throwable> onLost, io.millrace.api.time.Clock clock) {
        return server.version() == MqttVersion.MQTT_5
                ? new Mqtt5Connection(server, clientId, libraryReconnects, onMessage, onLost, clock)
                : new Mqtt3Connection(server, clientId, libraryReconnects, onMessage, onLost, clock);
    }
}
