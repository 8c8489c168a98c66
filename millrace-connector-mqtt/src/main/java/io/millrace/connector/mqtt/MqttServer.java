package io.millrace.connector.mqtt;

import java.time.Duration;
import java.util.Objects;

/**
 * How to reach and talk to a broker: host and port, protocol version, credentials, keep-alive, the expiry of
 * persistent sessions, the receive maximum and the reconnect backoff. Immutable; the {@code with...} methods return
 * a changed copy. Shared by {@link MqttSource} and {@link MqttSink}.
 *
 * @param host the broker's host name or address
 * @param port its TCP port (1883 for plain MQTT)
 * @param version the protocol version
 * @param username user name, or null for anonymous
 * @param password password (UTF-8), or null
 * @param keepAlive the keep-alive interval the client asks for
 * @param sessionExpiry how long the broker keeps a persistent session (and its queued messages) after its client
 *     disconnected; MQTT 5 only (an MQTT 3.1.1 broker keeps it for as long as it is configured to)
 * @param receiveMaximum how many QoS 1 and 2 messages the broker may send before the client acknowledges them
 *     (MQTT 5, 1 to 65,535); the broker's own limit ({@code max_inflight_messages} in Mosquitto) applies as well
 * @param reconnectInitial the first pause before reconnecting after a lost connection
 * @param reconnectMax the longest pause; each failed attempt doubles the pause up to it
 */
public record MqttServer(String host, int port, MqttVersion version, String username, String password, Duration keepAlive,
        Duration sessionExpiry, int receiveMaximum, Duration reconnectInitial, Duration reconnectMax) implements java.io.Serializable {
    public static final int DEFAULT_PORT = 1883;

    public MqttServer {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("MQTT: option 'host' is required");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("MQTT: option 'port' must be 1 to 65535, was " + port);
        }
        Objects.requireNonNull(version, "version");
        if (password != null && username == null) {
            throw new IllegalArgumentException("MQTT: option 'password' needs option 'username'");
        }
        positive(keepAlive, "keepAlive");
        if (sessionExpiry == null || sessionExpiry.isNegative() || sessionExpiry.toSeconds() > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("MQTT: option 'sessionExpiry' must be 0 to 4,294,967,295 seconds, was " + sessionExpiry);
        }
        if (receiveMaximum < 1 || receiveMaximum > 65535) {
            throw new IllegalArgumentException("MQTT: option 'receiveMaximum' must be 1 to 65535, was " + receiveMaximum);
        }
        positive(reconnectInitial, "reconnectBackoff (initial)");
        positive(reconnectMax, "reconnectBackoff (max)");
        if (reconnectMax.compareTo(reconnectInitial) < 0) {
            throw new IllegalArgumentException("MQTT: option 'reconnectBackoff': the longest pause " + reconnectMax
                    + " is shorter than the first " + reconnectInitial);
        }
    }

    private static void positive(Duration d, String option) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("MQTT: option '" + option + "' must be a positive duration, was " + d);
        }
    }

    /**
     * MQTT 5 at {@code host:port}, anonymous, keep-alive 30 s, sessions kept 1 day, receive maximum 65,535,
     * reconnecting after 100 ms, doubling up to 10 s.
     */
    public static MqttServer of(String host, int port) {
        return new MqttServer(host, port, MqttVersion.MQTT_5, null, null, Duration.ofSeconds(30), Duration.ofDays(1), 65535,
                Duration.ofMillis(100), Duration.ofSeconds(10));
    }

    public MqttServer withVersion(MqttVersion v) {
        return new MqttServer(host, port, v, username, password, keepAlive, sessionExpiry, receiveMaximum, reconnectInitial, reconnectMax);
    }

    public MqttServer withCredentials(String user, String pass) {
        return new MqttServer(host, port, version, user, pass, keepAlive, sessionExpiry, receiveMaximum, reconnectInitial, reconnectMax);
    }

    public MqttServer withKeepAlive(Duration d) {
        return new MqttServer(host, port, version, username, password, d, sessionExpiry, receiveMaximum, reconnectInitial, reconnectMax);
    }

    public MqttServer withSessionExpiry(Duration d) {
        return new MqttServer(host, port, version, username, password, keepAlive, d, receiveMaximum, reconnectInitial, reconnectMax);
    }

    public MqttServer withReceiveMaximum(int n) {
        return new MqttServer(host, port, version, username, password, keepAlive, sessionExpiry, n, reconnectInitial, reconnectMax);
    }

    public MqttServer withReconnectBackoff(Duration initial, Duration max) {
        return new MqttServer(host, port, version, username, password, keepAlive, sessionExpiry, receiveMaximum, initial, max);
    }

    @Override
    public String toString() {
        return host + ":" + port + " (" + (version == MqttVersion.MQTT_5 ? "MQTT 5" : "MQTT 3.1.1") + ")";
    }
}
