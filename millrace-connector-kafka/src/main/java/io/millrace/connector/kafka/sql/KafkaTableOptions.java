package io.millrace.connector.kafka.sql;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.RowType;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.connector.kafka.DeliveryGuarantee;
import io.millrace.connector.kafka.StartingOffsets;
import io.millrace.format.CsvRowFormat;
import io.millrace.format.JsonRowFormat;
import io.millrace.format.RawRowFormat;
import io.millrace.format.RowFormat;
import io.millrace.sql.connector.ConnectorException;
import io.millrace.sql.connector.ConnectorOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;

/**
 * The options the {@code kafka} and {@code upsert-kafka} tables share, by Flink's names: {@code topic},
 * {@code properties.bootstrap.servers} and any {@code properties.*}, the formats and their options, and the sink's
 * delivery guarantee. Each getter fails with a {@link ConnectorException} naming the option and the accepted values.
 */
final class KafkaTableOptions {
    static final String FORMATS = "json, csv, raw";

    private final ConnectorOptions options;
    private final String connector;

    KafkaTableOptions(ConnectorOptions options, String connector) {
        this.options = options;
        this.connector = connector;
    }

    String table() {
        return options.table();
    }

    /** {@code topic}: one topic, or several separated by {@code ;} (reading only); null when not given. */
    List<String> topics() {
        String t = options.get("topic");
        if (t == null) {
            return null;
        }
        List<String> topics = new ArrayList<>();
        for (String s : t.split(";")) {
            if (s.isBlank()) {
                throw options.invalid("topic", t, "one or more topic names separated by ';', none empty");
            }
            topics.add(s.strip());
        }
        return topics;
    }

    String bootstrapServers() {
        return options.required("properties.bootstrap.servers", "the brokers, host:port[,host:port...]");
    }

    /** The {@code properties.*} options without their prefix, {@code bootstrap.servers} and {@code group.id} included. */
    Map<String, String> properties() {
        Map<String, String> p = new LinkedHashMap<>();
        for (String key : options.keysWithPrefix("properties.")) {
            String name = key.substring("properties.".length());
            if (!ConsumerConfig.configNames().contains(name) && !ProducerConfig.configNames().contains(name)) {
                throw new ConnectorException("table '" + table() + "': option '" + key + "': '" + name
                        + "' is not a Kafka consumer or producer property");
            }
            p.put(name, options.get(key));
        }
        return p;
    }

    /** The consumer properties among {@link #properties()}. */
    Map<String, String> consumerProperties() {
        Map<String, String> p = new LinkedHashMap<>(properties());
        p.keySet().removeIf(k -> !ConsumerConfig.configNames().contains(k));
        return p;
    }

    /** The producer properties among {@link #properties()}. */
    Map<String, String> producerProperties() {
        Map<String, String> p = new LinkedHashMap<>(properties());
        p.keySet().removeIf(k -> !ProducerConfig.configNames().contains(k));
        return p;
    }

    /**
     * Where a fresh start reads from: {@code scan.startup.mode} = {@code earliest-offset}, {@code latest-offset},
     * {@code group-offsets} (the committed offsets of {@code properties.group.id}; a partition without one from where
     * {@code properties.auto.offset.reset} says, earliest by default), {@code timestamp}
     * ({@code scan.startup.timestamp-millis}) or {@code specific-offsets} ({@code scan.startup.specific-offsets}).
     * Without the option: {@code group-offsets} when a group is given, else {@code earliest-offset}.
     */
    StartingOffsets startingOffsets(List<String> topics) {
        String group = options.get("properties.group.id");
        String mode = options.choice("scan.startup.mode", group != null ? "group-offsets" : "earliest-offset",
                "earliest-offset", "latest-offset", "group-offsets", "timestamp", "specific-offsets");
        String timestamp = options.get("scan.startup.timestamp-millis");
        String specific = options.get("scan.startup.specific-offsets");
        if (timestamp != null && !mode.equals("timestamp")) {
            throw new ConnectorException("table '" + table() + "': option 'scan.startup.timestamp-millis' needs 'scan.startup.mode' = 'timestamp'");
        }
        if (specific != null && !mode.equals("specific-offsets")) {
            throw new ConnectorException("table '" + table() + "': option 'scan.startup.specific-offsets' needs 'scan.startup.mode' = "
                    + "'specific-offsets'");
        }
        return switch (mode) {
            case "earliest-offset" -> StartingOffsets.earliest();
            case "latest-offset" -> StartingOffsets.latest();
            case "group-offsets" -> {
                if (group == null) {
                    throw new ConnectorException("table '" + table() + "': 'scan.startup.mode' = 'group-offsets' needs option "
                            + "'properties.group.id', the consumer group whose committed offsets to start from");
                }
                String reset = options.get("properties.auto.offset.reset");
                if (reset != null && !reset.equals("earliest") && !reset.equals("latest")) {
                    throw options.invalid("properties.auto.offset.reset", reset, "earliest or latest");
                }
                yield StartingOffsets.committed("latest".equals(reset) ? StartingOffsets.latest() : StartingOffsets.earliest());
            }
            case "timestamp" -> {
                if (timestamp == null) {
                    options.required("scan.startup.timestamp-millis", "milliseconds since the epoch, for 'scan.startup.mode' = 'timestamp'");
                }
                yield StartingOffsets.timestamp(options.getLong("scan.startup.timestamp-millis", 0, 0));
            }
            default -> {
                if (specific == null) {
                    options.required("scan.startup.specific-offsets", "like 'partition:0,offset:42;partition:1,offset:300', for "
                            + "'scan.startup.mode' = 'specific-offsets'");
                }
                if (topics == null || topics.size() != 1) {
                    throw new ConnectorException("table '" + table() + "': 'scan.startup.mode' = 'specific-offsets' needs one topic in "
                            + "option 'topic'");
                }
                yield StartingOffsets.given(specificOffsets(topics.get(0), specific), StartingOffsets.earliest());
            }
        };
    }

    private Map<TopicPartition, Long> specificOffsets(String topic, String text) {
        Map<TopicPartition, Long> offsets = new TreeMap<>((a, b) -> Integer.compare(a.partition(), b.partition()));
        String accepted = "partition:P,offset:O pairs separated by ';', like 'partition:0,offset:42;partition:1,offset:300'";
        for (String entry : text.split(";")) {
            String[] parts = entry.strip().split(",");
            if (parts.length != 2 || !parts[0].strip().startsWith("partition:") || !parts[1].strip().startsWith("offset:")) {
                throw options.invalid("scan.startup.specific-offsets", text, accepted);
            }
            try {
                int partition = Integer.parseInt(parts[0].strip().substring("partition:".length()).strip());
                long offset = Long.parseLong(parts[1].strip().substring("offset:".length()).strip());
                if (partition < 0 || offset < 0) {
                    throw options.invalid("scan.startup.specific-offsets", text, accepted + ", no negative numbers");
                }
                offsets.put(new TopicPartition(topic, partition), offset);
            } catch (NumberFormatException e) {
                throw options.invalid("scan.startup.specific-offsets", text, accepted);
            }
        }
        return offsets;
    }

    /** {@code scan.bounded.mode}: {@code unbounded} (the default) or {@code latest-offset} (end at the offsets found at start). */
    boolean bounded() {
        return options.choice("scan.bounded.mode", "unbounded", "unbounded", "latest-offset").equals("latest-offset");
    }

    /** {@code scan.topic-partition-discovery.interval}: how often to look for new partitions; default 30 s, 0 for never. */
    Duration discoveryInterval() {
        return options.getDuration("scan.topic-partition-discovery.interval", Duration.ofSeconds(30));
    }

    /** {@code sink.delivery-guarantee}: {@code at-least-once} (the default) or {@code exactly-once}. */
    DeliveryGuarantee deliveryGuarantee() {
        String g = options.choice("sink.delivery-guarantee", "at-least-once", "at-least-once", "exactly-once");
        String prefix = options.get("sink.transactional-id-prefix");
        if (g.equals("exactly-once")) {
            if (prefix == null || prefix.isBlank()) {
                throw new ConnectorException("table '" + table() + "': 'sink.delivery-guarantee' = 'exactly-once' needs option "
                        + "'sink.transactional-id-prefix', a prefix of Kafka transactional ids unique to this sink and stable across restarts");
            }
            return DeliveryGuarantee.EXACTLY_ONCE;
        }
        if (prefix != null) {
            throw new ConnectorException("table '" + table() + "': option 'sink.transactional-id-prefix' needs 'sink.delivery-guarantee' = "
                    + "'exactly-once'");
        }
        return DeliveryGuarantee.AT_LEAST_ONCE;
    }

    String transactionalIdPrefix() {
        return options.get("sink.transactional-id-prefix");
    }

    /** The columns named by {@code key} ({@code a;b}), as positions in {@code type}, in the order given. */
    int[] fieldList(String key, String value, RowType type) {
        List<Integer> fields = new ArrayList<>();
        for (String name : value.split(";")) {
            int i = type.indexOf(name.strip());
            if (i < 0) {
                throw options.invalid(key, value, "physical columns of the table separated by ';'; its columns are " + type.names());
            }
            if (fields.contains(i)) {
                throw options.invalid(key, value, "each column once");
            }
            fields.add(i);
        }
        return fields.stream().mapToInt(Integer::intValue).toArray();
    }

    /** {@code value.fields-include}: {@code ALL} (the default: the value holds every column) or {@code EXCEPT_KEY}. */
    boolean valueExceptKey() {
        return options.choice("value.fields-include", "ALL", "ALL", "EXCEPT_KEY").equals("EXCEPT_KEY");
    }

    /**
     * A format of rows of {@code type} named by option {@code formatKey} ({@code format}, {@code key.format},
     * {@code value.format}) with its own options under {@code prefix} ({@code json.ignore-parse-errors},
     * {@code key.csv.field-delimiter}...); {@code badRecords[0]} becomes SKIP when the format ignores parse errors.
     */
    RowFormat format(String formatKey, String name, String prefix, RowType type, BadRecordPolicy[] badRecords) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "json" -> {
                if (options.getBoolean(prefix + "json.ignore-parse-errors", false)) {
                    badRecords[0] = BadRecordPolicy.SKIP;
                }
                return JsonRowFormat.of(type);
            }
            case "csv" -> {
                CsvRowFormat csv = CsvRowFormat.of(type);
                String delimiter = options.get(prefix + "csv.field-delimiter");
                if (delimiter != null) {
                    if (delimiter.length() != 1) {
                        throw options.invalid(prefix + "csv.field-delimiter", delimiter, "one character");
                    }
                    csv = csv.delimiter(delimiter.charAt(0));
                }
                String quote = options.get(prefix + "csv.quote-character");
                if (quote != null) {
                    if (quote.length() != 1) {
                        throw options.invalid(prefix + "csv.quote-character", quote, "one character");
                    }
                    csv = csv.quote(quote.charAt(0));
                }
                String nullLiteral = options.get(prefix + "csv.null-literal");
                if (nullLiteral != null) {
                    csv = csv.nullLiteral(nullLiteral);
                }
                if (options.getBoolean(prefix + "csv.ignore-parse-errors", false)) {
                    badRecords[0] = BadRecordPolicy.SKIP;
                }
                return csv;
            }
            case "raw" -> {
                if (type.size() != 1 || type.type(0) != FieldType.STRING) {
                    throw new ConnectorException("table '" + table() + "': option '" + formatKey + "' = 'raw' reads and writes one STRING column, "
                            + "but the " + (formatKey.startsWith("key") ? "key" : "value") + " has " + type.names() + " of types "
                            + Arrays.toString(types(type)));
                }
                return RawRowFormat.utf8(type.name(0));
            }
            default -> throw options.invalid(formatKey, name, "one of " + FORMATS);
        }
    }

    private static FieldType[] types(RowType type) {
        FieldType[] t = new FieldType[type.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = type.type(i);
        }
        return t;
    }

    ConnectorException error(String message) {
        return new ConnectorException("table '" + table() + "' (connector '" + connector + "'): " + message);
    }
}
