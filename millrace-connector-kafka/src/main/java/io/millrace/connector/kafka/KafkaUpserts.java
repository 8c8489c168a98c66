package io.millrace.connector.kafka;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowBuilder;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import io.millrace.format.FormatException;
import io.millrace.format.RowFormat;
import java.util.Objects;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A changelog of {@link Row}s in a Kafka topic as upserts, the form a compacted topic keeps: the record key is the
 * row's primary key, the value is its latest row, and a tombstone (a null value) deletes the key.
 *
 * <p><b>Writing</b> ({@link #serializer}): {@code +I} and {@code +U} write the key and the row; {@code -D} writes the
 * key with a null value; {@code -U} writes nothing (the {@code +U} after it replaces the row). Give it to
 * {@link KafkaSink#builder}: with exactly-once, a reader of the topic sees only committed upserts.
 *
 * <p><b>Reading</b> ({@link #deserializer}): a record with a value becomes a {@code +U} row of the value format's
 * type; a tombstone becomes a {@code -D} row whose key fields come from the record key and whose other fields hold
 * zero, false or the empty string. Only the key fields of a {@code -D} row matter to
 * {@link io.millrace.api.table.KeyedTable#fromUpserts}, which turns the upserts back into a table (latest row per
 * key) and emits the row it removes, never the placeholder. A record without a key, or whose key or value does not
 * fit the formats, is a bad record of the source (fail, skip or dead-letter by its policy).
 *
 * <p>The key format's fields are the primary key: each must be a field of the value format's type, of the same type.
 */
public final class KafkaUpserts {
    private KafkaUpserts() {}

    /** The upsert serializer to {@code topic}: key fields by {@code key}, the row by {@code value}. */
    public static KafkaRecordSerializer<Row> serializer(String topic, RowFormat key, RowFormat value) {
        if (topic == null || topic.isBlank()) {
            throw new IllegalArgumentException("Kafka upsert sink: the topic must not be empty");
        }
        int[] keyFields = keyPositions(key.type(), value.type());
        RowType keyType = key.type();
        return (row, timestamp) -> {
            if (row.kind() == RowKind.UPDATE_BEFORE) {
                return null;
            }
            byte[] k = key.encode(project(row, keyType, keyFields));
            byte[] v = row.kind() == RowKind.DELETE ? null : value.encode(row);
            return new ProducerRecord<>(topic, null, timestamp == Long.MIN_VALUE ? null : timestamp, k, v);
        };
    }

    /** The upsert deserializer of a topic written as {@link #serializer} writes: see the class comment. */
    public static KafkaRecordDeserializer<Row> deserializer(RowFormat key, RowFormat value) {
        int[] keyFields = keyPositions(key.type(), value.type());
        RowType keyType = key.type();
        RowType valueType = value.type();
        return record -> {
            if (record.value() != null) {
                return value.decode(record.value()).withKind(RowKind.UPDATE_AFTER);
            }
            if (record.key() == null) {
                throw new FormatException("a tombstone without a key: no row to delete");
            }
            Row k = key.decode(record.key());
            RowBuilder b = placeholders(valueType);
            for (int i = 0; i < keyFields.length; i++) {
                b.set(keyFields[i], k.getField(i));
            }
            return b.build(RowKind.DELETE);
        };
    }

    private static Row project(Row row, RowType keyType, int[] keyFields) {
        Object[] values = new Object[keyFields.length];
        for (int i = 0; i < keyFields.length; i++) {
            values[i] = row.getField(keyFields[i]);
        }
        return Row.of(keyType, values);
    }

    private static int[] keyPositions(RowType keyType, RowType valueType) {
        Objects.requireNonNull(keyType, "key format's type");
        Objects.requireNonNull(valueType, "value format's type");
        int[] positions = new int[keyType.size()];
        for (int i = 0; i < keyType.size(); i++) {
            int p = valueType.indexOf(keyType.name(i));
            if (p < 0 || valueType.type(p) != keyType.type(i)) {
                throw new IllegalArgumentException("key field '" + keyType.name(i) + "' (" + keyType.type(i) + ") is not a field of "
                        + valueType + (p < 0 ? "" : " of that type (it is " + valueType.type(p) + ")"));
            }
            positions[i] = p;
        }
        return positions;
    }

    /** A builder with every field of {@code type} set to a placeholder value of its type. */
    private static RowBuilder placeholders(RowType type) {
        RowBuilder b = Row.builder(type);
        for (int i = 0; i < type.size(); i++) {
            b.set(i, type.type(i) == FieldType.ROW ? placeholders(type.rowType(i)).build() : placeholder(type.type(i)));
        }
        return b;
    }

    private static Object placeholder(FieldType type) {
        return switch (type) {
            case BOOLEAN -> Boolean.FALSE;
            case INT, DATE, TIME -> 0;
            case BIGINT, TIMESTAMP -> 0L;
            case FLOAT -> 0f;
            case DOUBLE -> 0d;
            case STRING -> "";
            case DECIMAL -> java.math.BigDecimal.ZERO;
            case ROW -> throw new IllegalStateException("ROW placeholders are built by placeholders(RowType)");
        };
    }
}
