package io.millrace.connector.kafka;

import io.millrace.api.functions.MapFunction;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Turns a sink's element into the Kafka record to write: topic, optional partition and key, value, headers,
 * timestamp. Called on the sink subtask's thread, once per element; {@code timestamp} is the element's event time
 * ({@code Long.MIN_VALUE} when it has none). A null record writes nothing for the element.
 */
@FunctionalInterface
public interface KafkaRecordSerializer<T> extends java.io.Serializable {
    ProducerRecord<byte[], byte[]> serialize(T element, long timestamp) throws Exception;

    /**
     * To {@code topic}, with the key and value the functions give (a null key function: no key, so Kafka's default
     * partitioner spreads the records), the element's event time as the record timestamp when it has one.
     */
    static <T> KafkaRecordSerializer<T> to(String topic, MapFunction<T, byte[]> key, MapFunction<T, byte[]> value) {
        if (topic == null || topic.isBlank()) {
            throw new IllegalArgumentException("Kafka sink: the topic must not be empty");
        }
        return (element, timestamp) -> new ProducerRecord<>(topic, null, timestamp == Long.MIN_VALUE ? null : timestamp,
                key == null ? null : key.map(element), value.map(element));
    }

    /** Elements written as UTF-8 text ({@code String.valueOf}) to {@code topic}, keyed by the given function's text. */
    static <T> KafkaRecordSerializer<T> utf8(String topic, MapFunction<T, ?> key) {
        return to(topic, key == null ? null : e -> String.valueOf(key.map(e)).getBytes(StandardCharsets.UTF_8),
                e -> String.valueOf(e).getBytes(StandardCharsets.UTF_8));
    }
}
