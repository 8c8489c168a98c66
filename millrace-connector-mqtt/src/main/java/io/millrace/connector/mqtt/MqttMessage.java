package io.millrace.connector.mqtt;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A message as the source received it. Immutable: the constructor and {@link #payload()} copy the bytes.
 *
 * @param topic the topic it was published to
 * @param payload its bytes
 * @param qos the QoS it was delivered with (the lower of the publisher's and the subscription's)
 * @param retained whether the broker sent it as a retained message (on subscribing)
 * @param userProperties MQTT 5 user properties, in order (empty for MQTT 3.1.1)
 * @param clientId the client id of the session that received it
 * @param arrivalMillis when the source received it, by the job's clock (the record's source timestamp)
 */
public record MqttMessage(String topic, byte[] payload, Qos qos, boolean retained, List<UserProperty> userProperties, String clientId,
        long arrivalMillis) implements java.io.Serializable {
    /** An MQTT 5 user property: a name and a value, both UTF-8 text; names may repeat. */
    public record UserProperty(String name, String value) implements java.io.Serializable {}

    public MqttMessage {
        Objects.requireNonNull(topic, "topic");
        payload = Objects.requireNonNull(payload, "payload").clone();
        Objects.requireNonNull(qos, "qos");
        userProperties = List.copyOf(userProperties);
        Objects.requireNonNull(clientId, "clientId");
    }

    /** A copy of the payload. */
    @Override
    public byte[] payload() {
        return payload.clone();
    }

    /** The payload decoded as UTF-8, bad bytes replaced: for people to read. */
    public String payloadText() {
        return new String(payload, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The value of the first user property of that name, or null. */
    public String userProperty(String name) {
        for (UserProperty p : userProperties) {
            if (p.name().equals(name)) {
                return p.value();
            }
        }
        return null;
    }

    byte[] payloadUnsafe() {
        return payload;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MqttMessage m && topic.equals(m.topic) && Arrays.equals(payload, m.payload) && qos == m.qos
                && retained == m.retained && userProperties.equals(m.userProperties) && clientId.equals(m.clientId)
                && arrivalMillis == m.arrivalMillis;
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, Arrays.hashCode(payload), qos, retained, userProperties, clientId, arrivalMillis);
    }

    @Override
    public String toString() {
        return topic + " qos " + qos.level() + (retained ? " retained" : "") + ": " + payloadText();
    }
}
