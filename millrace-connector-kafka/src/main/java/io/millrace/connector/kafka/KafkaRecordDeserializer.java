package io.millrace.connector.kafka;

import io.millrace.api.row.Row;
import io.millrace.format.BytesDecoder;
import io.millrace.format.FormatException;
import io.millrace.format.RowFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Turns a raw Kafka record into the source's element. Called on the source subtask's thread, once per record. A
 * deserializer throws when the record is not what it expects; the source then applies its bad-record policy
 * (fail naming topic, partition, offset and the reason; skip and count; or a dead letter with the raw bytes).
 */
@FunctionalInterface
public interface KafkaRecordDeserializer<T> extends java.io.Serializable {
    T deserialize(ConsumerRecord<byte[], byte[]> record) throws Exception;

    /** Only the value, decoded. */
    static <V> KafkaRecordDeserializer<V> values(BytesDecoder<V> value) {
        Objects.requireNonNull(value, "value decoder");
        return r -> value.decode(r.value());
    }

    /**
     * The value as a {@link Row} of {@code format} (JSON, CSV, raw, Avro...). A value the format refuses, and a
     * tombstone (a null value), is a bad record: the reason names the field and what was wrong.
     */
    static KafkaRecordDeserializer<Row> rows(RowFormat format) {
        Objects.requireNonNull(format, "format");
        return r -> {
            if (r.value() == null) {
                throw new FormatException("a tombstone (null value) where a row of " + format + " was expected");
            }
            return format.decode(r.value());
        };
    }

    /** The whole record as a {@link KafkaRecord}: key and value decoded, headers, topic, partition, offset, timestamp. */
    static <K, V> KafkaRecordDeserializer<KafkaRecord<K, V>> records(BytesDecoder<K> key, BytesDecoder<V> value) {
        Objects.requireNonNull(key, "key decoder");
        Objects.requireNonNull(value, "value decoder");
        return r -> {
            List<KafkaHeader> headers = new ArrayList<>();
            for (Header h : r.headers()) {
                headers.add(new KafkaHeader(h.key(), h.value()));
            }
            return new KafkaRecord<>(key.decode(r.key()), value.decode(r.value()), headers, r.topic(), r.partition(), r.offset(), r.timestamp());
        };
    }
}
