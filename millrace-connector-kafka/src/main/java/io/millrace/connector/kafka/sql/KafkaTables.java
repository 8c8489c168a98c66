package io.millrace.connector.kafka.sql;

import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.connector.kafka.DeliveryGuarantee;
import io.millrace.connector.kafka.KafkaRecordDeserializer;
import io.millrace.connector.kafka.KafkaRecordSerializer;
import io.millrace.connector.kafka.KafkaSink;
import io.millrace.connector.kafka.KafkaSource;
import io.millrace.connector.kafka.StartingOffsets;
import io.millrace.format.FormatException;
import io.millrace.format.RowFormat;
import io.millrace.sql.connector.ConnectorException;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/** What the {@code kafka} and {@code upsert-kafka} table connectors build from their options: formats, source, sink. */
final class KafkaTables {
    private KafkaTables() {}

    /** The key and value formats and where the columns go, from {@code key.format}, {@code value.format} and friends. */
    static RowLayout layout(KafkaTableOptions o, RowType type, int[] keyFields, String keyFormat, String valueFormatKey, String valueFormat,
            BadRecordPolicy[] badRecords) {
        boolean exceptKey = o.valueExceptKey();
        if (exceptKey && keyFields.length == 0) {
            throw o.error("'value.fields-include' = 'EXCEPT_KEY' needs key fields ('key.fields', or the PRIMARY KEY of an upsert-kafka table)");
        }
        int[] valueFields = new int[type.size() - (exceptKey ? keyFields.length : 0)];
        int n = 0;
        for (int i = 0; i < type.size(); i++) {
            if (!exceptKey || !contains(keyFields, i)) {
                valueFields[n++] = i;
            }
        }
        if (valueFields.length == 0) {
            throw o.error("'value.fields-include' = 'EXCEPT_KEY' leaves no column for the record value: every column is a key field");
        }
        BadRecordPolicy[] keyPolicy = {BadRecordPolicy.FAIL};
        RowFormat key = keyFields.length == 0 ? null : o.format("key.format", keyFormat, "key.", RowLayout.project(type, keyFields), keyPolicy);
        String prefix = valueFormatKey.equals("format") ? "" : "value.";
        RowFormat value = o.format(valueFormatKey, valueFormat, prefix, RowLayout.project(type, valueFields), badRecords);
        if (keyPolicy[0] == BadRecordPolicy.SKIP) {
            badRecords[0] = BadRecordPolicy.SKIP;
        }
        return new RowLayout(type, keyFields, valueFields, key, value);
    }

    private static boolean contains(int[] a, int v) {
        for (int x : a) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    /** A source of rows by {@code deserializer}, with the source options of {@code o}. */
    static KafkaSource<Row> source(KafkaTableOptions o, KafkaRecordDeserializer<Row> deserializer, List<String> topics, String pattern,
            StartingOffsets start, boolean bounded) {
        KafkaSource.Builder<Row> b = KafkaSource.builder(deserializer).startingOffsets(start).partitionDiscoveryInterval(o.discoveryInterval());
        if (pattern != null) {
            b.topicPattern(pattern);
        } else {
            b.topics(topics.toArray(String[]::new));
        }
        if (bounded) {
            b.bounded();
        }
        for (Map.Entry<String, String> p : o.consumerProperties().entrySet()) {
            try {
                b.property(p.getKey(), p.getValue());
            } catch (IllegalArgumentException e) {
                throw o.error("option 'properties." + p.getKey() + "': " + e.getMessage());
            }
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw o.error(e.getMessage());
        }
    }

    /** A sink of rows by {@code serializer}, with the sink options of {@code o}. */
    static KafkaSink<Row> sink(KafkaTableOptions o, KafkaRecordSerializer<Row> serializer, DeliveryGuarantee guarantee) {
        KafkaSink.Builder<Row> b = KafkaSink.builder(serializer);
        for (Map.Entry<String, String> p : o.producerProperties().entrySet()) {
            try {
                b.property(p.getKey(), p.getValue());
            } catch (IllegalArgumentException e) {
                throw o.error("option 'properties." + p.getKey() + "': " + e.getMessage());
            }
        }
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            b.exactlyOnce(o.transactionalIdPrefix());
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw o.error(e.getMessage());
        }
    }

    /** The one topic a sink writes to; several topics or a pattern are for reading only. */
    static String sinkTopic(KafkaTableOptions o, List<String> topics) {
        if (topics == null || topics.size() != 1) {
            throw new ConnectorException("table '" + o.table() + "' cannot be written: writing needs exactly one topic in option 'topic'"
                    + (topics == null ? " (a 'topic-pattern' is for reading)" : ", not " + topics.size()));
        }
        return topics.get(0);
    }

    /** Records of a {@code kafka} table: an insert per record; a tombstone is a bad record. */
    record Inserts(RowLayout layout) implements KafkaRecordDeserializer<Row> {
        @Override
        public Row deserialize(ConsumerRecord<byte[], byte[]> record) {
            if (record.value() == null) {
                throw new FormatException("a tombstone (null value): a 'kafka' table reads rows; read a topic of upserts with "
                        + "'connector' = 'upsert-kafka'");
            }
            return layout.row(record.key(), record.value(), RowKind.INSERT);
        }
    }

    /** Records of an {@code upsert-kafka} table: a value is an update of its key ({@code +U}), a tombstone its delete ({@code -D}). */
    record Upserts(RowLayout layout) implements KafkaRecordDeserializer<Row> {
        @Override
        public Row deserialize(ConsumerRecord<byte[], byte[]> record) {
            return record.value() == null ? layout.delete(record.key()) : layout.row(record.key(), record.value(), RowKind.UPDATE_AFTER);
        }
    }

    /** Rows of a {@code kafka} table: key (when there are key fields) and value; the row's event time as the record timestamp. */
    record Appends(String topic, RowLayout layout) implements KafkaRecordSerializer<Row> {
        @Override
        public ProducerRecord<byte[], byte[]> serialize(Row row, long timestamp) {
            return new ProducerRecord<>(topic, null, timestamp == Long.MIN_VALUE ? null : timestamp, layout.key(row), layout.value(row));
        }
    }

    /**
     * Changes of an {@code upsert-kafka} table: {@code +I} and {@code +U} write the key and the row, {@code -D} and
     * {@code -U} a tombstone of the key (as Flink's upsert-kafka sink does).
     */
    record UpsertWrites(String topic, RowLayout layout) implements KafkaRecordSerializer<Row> {
        @Override
        public ProducerRecord<byte[], byte[]> serialize(Row row, long timestamp) {
            boolean tombstone = row.kind() == RowKind.DELETE || row.kind() == RowKind.UPDATE_BEFORE;
            return new ProducerRecord<>(topic, null, timestamp == Long.MIN_VALUE ? null : timestamp, layout.key(row),
                    tombstone ? null : layout.value(row));
        }
    }
}
