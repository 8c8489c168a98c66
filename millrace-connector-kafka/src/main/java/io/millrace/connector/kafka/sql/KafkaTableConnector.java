package io.millrace.connector.kafka.sql;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.Sink;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.kafka.DeliveryGuarantee;
import io.millrace.connector.kafka.KafkaSource;
import io.millrace.sql.connector.ConnectorOptions;
import io.millrace.sql.connector.TableConnector;
import java.util.List;

/**
 * {@code 'connector' = 'kafka'}: a topic as an append-only table, with Flink's option names. Each record is an insert
 * of the columns its value holds (and, with {@code key.fields}, those its key holds); writing appends a record per row,
 * at least once or exactly once. See docs/kafka.md for the options.
 */
public final class KafkaTableConnector implements TableConnector {
    @Override
    public String name() {
        return "kafka";
    }

    @Override
    public Opened open(RowType type, ConnectorOptions options) {
        KafkaTableOptions o = new KafkaTableOptions(options, name());
        List<String> topics = o.topics();
        String pattern = options.get("topic-pattern");
        if (topics == null && pattern == null) {
            options.required("topic", "the topic to read or write, or several separated by ';' to read (or 'topic-pattern' to read the "
                    + "topics matching a regular expression)");
        }
        if (topics != null && pattern != null) {
            throw o.error("give either option 'topic' or 'topic-pattern', not both");
        }
        String servers = o.bootstrapServers();
        String format = options.get("format");
        String valueFormat = options.get("value.format");
        if (format != null && valueFormat != null) {
            throw o.error("give either option 'format' or 'value.format', not both");
        }
        if (format == null && valueFormat == null) {
            options.required("value.format", "the format of the record values, one of " + KafkaTableOptions.FORMATS + " (or option 'format')");
        }
        String keyFormat = options.get("key.format");
        String keyFieldsText = options.get("key.fields");
        if (keyFieldsText != null && keyFormat == null) {
            options.required("key.format", "the format of the record keys for 'key.fields', one of " + KafkaTableOptions.FORMATS);
        }
        if (keyFormat != null && keyFieldsText == null) {
            options.required("key.fields", "the columns read from and written to the record key, separated by ';'");
        }
        int[] keyFields = keyFieldsText == null ? new int[0] : o.fieldList("key.fields", keyFieldsText, type);
        BadRecordPolicy[] badRecords = {BadRecordPolicy.FAIL};
        RowLayout layout = KafkaTables.layout(o, type, keyFields, keyFormat, format != null ? "format" : "value.format",
                format != null ? format : valueFormat, badRecords);
        KafkaSource<Row> source = KafkaTables.source(o, new KafkaTables.Inserts(layout), topics, pattern, o.startingOffsets(topics), o.bounded());
        DeliveryGuarantee guarantee = o.deliveryGuarantee();
        BadRecordPolicy policy = badRecords[0];
        String describe = "kafka, " + (pattern != null ? "topic-pattern=" + pattern : "topic=" + String.join(";", topics))
                + ", properties.bootstrap.servers=" + servers + ", format=" + (format != null ? format : valueFormat)
                + (keyFormat == null ? "" : ", key.format=" + keyFormat + ", key.fields=" + keyFieldsText);
        return new Opened() {
            @Override
            public DataStream<Row> source(Pipeline pipeline, String name, WatermarkStrategy<Row> watermarks) {
                return pipeline.fromSource(source, watermarks, policy, name);
            }

            @Override
            public Sink<Row> sink() {
                return KafkaTables.sink(o, new KafkaTables.Appends(KafkaTables.sinkTopic(o, topics), layout), guarantee);
            }

            @Override
            public String describe() {
                return describe;
            }
        };
    }
}
