package io.millrace.connector.kafka.sql;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.Sink;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.kafka.DeliveryGuarantee;
import io.millrace.connector.kafka.KafkaSource;
import io.millrace.connector.kafka.StartingOffsets;
import io.millrace.sql.connector.ConnectorOptions;
import io.millrace.sql.connector.TableConnector;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * {@code 'connector' = 'upsert-kafka'}: a topic of upserts as a changelog table, with Flink's option names. The
 * PRIMARY KEY is the record key. Reading from the earliest offset, a record with a value is an update of its key
 * ({@code +U}) and a tombstone its delete ({@code -D}); writing, {@code +I} and {@code +U} write the key and the row,
 * {@code -D} and {@code -U} a tombstone, with rows distributed to the sink's subtasks by the key so that the changes
 * of one key stay in order. See docs/kafka.md for the options.
 */
public final class UpsertKafkaTableConnector implements TableConnector {
    @Override
    public String name() {
        return "upsert-kafka";
    }

    @Override
    public Opened open(RowType type, ConnectorOptions options) {
        KafkaTableOptions o = new KafkaTableOptions(options, name());
        List<String> primaryKey = options.primaryKey();
        if (primaryKey.isEmpty()) {
            throw o.error("needs a PRIMARY KEY (...) NOT ENFORCED: its columns are the record key of the upserts");
        }
        List<String> topics = o.topics();
        if (topics == null) {
            options.required("topic", "the topic of the upserts");
        }
        String servers = o.bootstrapServers();
        String keyFormat = options.required("key.format", "the format of the record keys (the PRIMARY KEY columns), one of "
                + KafkaTableOptions.FORMATS);
        String valueFormat = options.required("value.format", "the format of the record values, one of " + KafkaTableOptions.FORMATS);
        int[] keyFields = new int[primaryKey.size()];
        for (int i = 0; i < keyFields.length; i++) {
            keyFields[i] = type.indexOf(primaryKey.get(i));
            if (keyFields[i] < 0) {
                throw o.error("PRIMARY KEY column '" + primaryKey.get(i) + "' must be a physical column; physical columns are " + type.names());
            }
        }
        BadRecordPolicy[] badRecords = {BadRecordPolicy.FAIL};
        RowLayout layout = KafkaTables.layout(o, type, keyFields, keyFormat, "value.format", valueFormat, badRecords);
        KafkaSource<Row> source = KafkaTables.source(o, new KafkaTables.Upserts(layout), topics, null, StartingOffsets.earliest(), o.bounded());
        DeliveryGuarantee guarantee = o.deliveryGuarantee();
        BadRecordPolicy policy = badRecords[0];
        String describe = "upsert-kafka, topic=" + String.join(";", topics) + ", properties.bootstrap.servers=" + servers + ", key.format="
                + keyFormat + ", value.format=" + valueFormat;
        return new Opened() {
            @Override
            public DataStream<Row> source(Pipeline pipeline, String name, WatermarkStrategy<Row> watermarks) {
                return pipeline.fromSource(source, watermarks, policy, name);
            }

            @Override
            public Sink<Row> sink() {
                return KafkaTables.sink(o, new KafkaTables.UpsertWrites(KafkaTables.sinkTopic(o, topics), layout), guarantee);
            }

            @Override
            public String describe() {
                return describe;
            }

            @Override
            public Set<RowKind> changelogKinds() {
                return EnumSet.of(RowKind.UPDATE_AFTER, RowKind.DELETE);
            }

            @Override
            public boolean acceptsChanges() {
                return true;
            }

            @Override
            public List<String> sinkKey() {
                return primaryKey;
            }
        };
    }
}
