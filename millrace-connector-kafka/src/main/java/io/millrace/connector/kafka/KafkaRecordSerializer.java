package io.millrace.connector.kafka;

import io.millrace.api.functions.MapFunction;
import io.millrace.api.row.Row;
import io.millrace.api.source.BadRecord;
import io.millrace.format.RowFormat;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

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

    /** The header of a dead letter that holds the reason, in UTF-8. */
    String REASON_HEADER = "millrace.bad-record.reason";
    /** The header of a dead letter that holds where the bad record was (topic, partition and offset; file and line), in UTF-8. */
    String LOCATION_HEADER = "millrace.bad-record.location";

    /** Rows written as {@code format} encodes them to {@code topic}, without a key; a row's kind is not written. */
    static KafkaRecordSerializer<Row> rows(String topic, RowFormat format) {
        Objects.requireNonNull(format, "format");
        return to(topic, null, format::encode);
    }

    /**
     * A dead-letter topic: each {@link BadRecord} of a source's {@link BadRecord#DEAD_LETTERS} side output written to
     * {@code topic} with its raw bytes as the value (empty for a tombstone), no key, and the reason and location in the
     * headers {@link #REASON_HEADER} and {@link #LOCATION_HEADER}.
     */
    static KafkaRecordSerializer<BadRecord> deadLetters(String topic) {
        if (topic == null || topic.isBlank()) {
            throw new IllegalArgumentException("Kafka dead-letter sink: the topic must not be empty");
        }
        return (bad, timestamp) -> {
            List<Header> headers = List.of(new RecordHeader(REASON_HEADER, bad.reason().getBytes(StandardCharsets.UTF_8)),
                    new RecordHeader(LOCATION_HEADER, bad.location().getBytes(StandardCharsets.UTF_8)));
            return new ProducerRecord<>(topic, null, timestamp == Long.MIN_VALUE ? null : timestamp, null, bad.raw(), headers);
        };
    }
}
