package io.millrace.connector.kafka;

import java.nio.charset.StandardCharsets;

/** One header of a Kafka record. The value may be null; {@link #text} reads it as UTF-8. */
public record KafkaHeader(String key, byte[] value) implements java.io.Serializable {
    public String text() {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }
}
