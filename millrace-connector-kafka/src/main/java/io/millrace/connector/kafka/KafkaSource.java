package io.millrace.connector.kafka;

import io.millrace.api.source.Boundedness;
import io.millrace.api.source.EnumeratorCheckpoint;
import io.millrace.api.source.Source;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import io.millrace.api.source.SplitEnumerator;
import io.millrace.api.source.SplitEnumeratorContext;
import io.millrace.api.source.VersionedCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Reads Kafka topics, listed or matching a pattern. Every partition is a {@link KafkaPartitionSplit}; the source's
 * enumerator ({@link KafkaSplitEnumerator}) finds them at the start and every {@code partitionDiscoveryInterval}
 * while the job runs, and hands each to one subtask. A reader consumes
 * its partitions with a {@code read_committed} consumer by default, so records of open or aborted transactions are
 * never seen, and emits each record with the record's timestamp as the source timestamp, per partition (a partition
 * is a split for watermarks and idleness). The offsets reached are stored in every checkpoint and a restored job
 * continues from exactly there, whatever its parallelism.
 *
 * <pre>{@code
 * KafkaSource<String> lines = KafkaSource.builder(KafkaRecordDeserializer.values(io.millrace.format.BytesDecoder.utf8()))
 *         .bootstrapServers("broker:9092").topics("readings").startingOffsets(StartingOffsets.earliest()).build();
 * }</pre>
 */
public final class KafkaSource<T> implements Source<T, KafkaPartitionSplit> {
    static final Duration DEFAULT_DISCOVERY_INTERVAL = Duration.ofSeconds(30);
    private final KafkaRecordDeserializer<T> deserializer;
    private final List<String> topics;
    private final String pattern;
    private final long discoveryMillis;
    private final StartingOffsets startingOffsets;
    private final boolean bounded;
    private final LinkedHashMap<String, String> properties;

    private KafkaSource(Builder<T> b) {
        this.deserializer = b.deserializer;
        this.topics = List.copyOf(b.topics);
        this.pattern = b.pattern == null ? null : b.pattern.pattern();
        this.discoveryMillis = b.discoveryInterval.toMillis();
        this.startingOffsets = b.startingOffsets;
        this.bounded = b.bounded;
        this.properties = new LinkedHashMap<>(b.properties);
    }

    public static <T> Builder<T> builder(KafkaRecordDeserializer<T> deserializer) {
        return new Builder<>(deserializer);
    }

    @Override
    public Boundedness boundedness() {
        return bounded ? Boundedness.BOUNDED : Boundedness.CONTINUOUS_UNBOUNDED;
    }

    /**
     * The enumerator that finds the partitions and hands them out: at the start (failing, naming the topic, when a
     * listed topic does not exist, or naming {@code bootstrap.servers} when the brokers cannot be reached), then every
     * {@code partitionDiscoveryInterval} unless the source is bounded.
     */
    @Override
    public SplitEnumerator<KafkaPartitionSplit> createEnumerator(SplitEnumeratorContext<KafkaPartitionSplit> context,
            EnumeratorCheckpoint restored) throws Exception {
        if (restored != null && restored.version() != KafkaSplitEnumerator.STATE_VERSION) {
            throw new IllegalStateException("Kafka source '" + context.sourceName() + "': the checkpoint's enumerator state has version "
                    + restored.version() + "; this release reads version " + KafkaSplitEnumerator.STATE_VERSION);
        }
        Map<String, Object> adminProps = new LinkedHashMap<>(properties);
        adminProps.keySet().removeIf(k -> !AdminClientConfig.configNames().contains(k));
        adminProps.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        adminProps.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, context.sourceName() + "-enumerator");
        return new KafkaSplitEnumerator(context, topics, pattern == null ? null : Pattern.compile(pattern), startingOffsets, bounded,
                discoveryMillis, adminProps, properties.get(ConsumerConfig.GROUP_ID_CONFIG), restored == null ? null : restored.state());
    }

    @Override
    public VersionedCodec<KafkaPartitionSplit> splitCodec() {
        return new KafkaPartitionSplit.Codec();
    }

    @Override
    public SourceReader<T, KafkaPartitionSplit> createReader(SourceReaderContext context) {
        Map<String, Object> props = new LinkedHashMap<>(properties);
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, context.sourceName() + "-" + context.subtaskIndex());
        return new KafkaSourceReader<>(props, deserializer, bounded);
    }

    /** Options of a {@link KafkaSource}; {@code bootstrapServers} and at least one topic are required. */
    public static final class Builder<T> {
        private final KafkaRecordDeserializer<T> deserializer;
        private final List<String> topics = new ArrayList<>();
        private Pattern pattern;
        private Duration discoveryInterval = DEFAULT_DISCOVERY_INTERVAL;
        private StartingOffsets startingOffsets = StartingOffsets.earliest();
        private boolean bounded;
        private final LinkedHashMap<String, String> properties = new LinkedHashMap<>();

        private Builder(KafkaRecordDeserializer<T> deserializer) {
            this.deserializer = Objects.requireNonNull(deserializer, "deserializer");
            properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        }

        /** {@code bootstrap.servers}: {@code host:port[,host:port...]}. */
        public Builder<T> bootstrapServers(String servers) {
            return property(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        }

        public Builder<T> topics(String... names) {
            for (String t : names) {
                if (t == null || t.isBlank()) {
                    throw new IllegalArgumentException("Kafka source: option 'topics' has an empty topic name");
                }
                topics.add(t);
            }
            return this;
        }

        /**
         * Reads every topic whose whole name matches {@code regex} ({@link Pattern} syntax), also topics created while
         * the job runs (found at the next partition discovery). Instead of {@link #topics}.
         */
        public Builder<T> topicPattern(String regex) {
            if (regex == null || regex.isBlank()) {
                throw new IllegalArgumentException("Kafka source: option 'topicPattern' must not be empty");
            }
            try {
                this.pattern = Pattern.compile(regex);
            } catch (java.util.regex.PatternSyntaxException e) {
                throw new IllegalArgumentException("Kafka source: option 'topicPattern' is not a regular expression: " + e.getMessage(), e);
            }
            return this;
        }

        /**
         * How often the source looks for new partitions and, with {@link #topicPattern}, new topics; found ones are
         * read from their earliest offset. Default 30 s; {@link Duration#ZERO}: never (the partitions found at the
         * start are all that is read). A bounded source never looks again.
         */
        public Builder<T> partitionDiscoveryInterval(Duration interval) {
            if (interval == null || interval.isNegative()) {
                throw new IllegalArgumentException("Kafka source: option 'partitionDiscoveryInterval' must be zero or positive, was " + interval);
            }
            this.discoveryInterval = interval;
            return this;
        }

        /**
         * The consumer group ({@code group.id}): needed for {@link StartingOffsets#committed()}. With a group, the
         * offsets of each completed checkpoint are committed to it, for monitoring tools; a restored job never reads
         * them (it continues from its checkpoint).
         */
        public Builder<T> groupId(String group) {
            return property(ConsumerConfig.GROUP_ID_CONFIG, group);
        }

        /** Where a fresh start begins; default {@link StartingOffsets#earliest()}. */
        public Builder<T> startingOffsets(StartingOffsets offsets) {
            this.startingOffsets = Objects.requireNonNull(offsets, "startingOffsets");
            return this;
        }

        /**
         * Makes the source bounded: each partition is read up to the end it has when a reader first looks at it (for a
         * read_committed reader the last stable offset), and the source ends there. The end is kept in the checkpoint, so
         * a restored job stops at the same place.
         */
        public Builder<T> bounded() {
            this.bounded = true;
            return this;
        }

        /**
         * Any consumer property ({@code security.protocol}, {@code sasl.jaas.config}, {@code max.poll.records},
         * {@code isolation.level=read_uncommitted}...). Set by the source and not to be given: the deserializers and
         * {@code enable.auto.commit} (always false: offsets live in checkpoints).
         */
        public Builder<T> property(String key, String value) {
            if (key.equals(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG) || key.equals(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG)
                    || key.equals(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG)) {
                throw new IllegalArgumentException("Kafka source: property '" + key + "' is set by the source and cannot be given");
            }
            if (!ConsumerConfig.configNames().contains(key)) {
                throw new IllegalArgumentException("Kafka source: '" + key + "' is not a Kafka consumer property");
            }
            properties.put(key, Objects.requireNonNull(value, key));
            return this;
        }

        public KafkaSource<T> build() {
            if (!properties.containsKey(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG)) {
                throw new IllegalArgumentException("Kafka source: option 'bootstrapServers' is required");
            }
            if (topics.isEmpty() && pattern == null) {
                throw new IllegalArgumentException("Kafka source: option 'topics' is required: name at least one topic (or give 'topicPattern')");
            }
            if (!topics.isEmpty() && pattern != null) {
                throw new IllegalArgumentException("Kafka source: give either option 'topics' or 'topicPattern', not both");
            }
            if (startingOffsets.needsGroup() && !properties.containsKey(ConsumerConfig.GROUP_ID_CONFIG)) {
                throw new IllegalArgumentException("Kafka source: starting from committed offsets needs option 'groupId'");
            }
            return new KafkaSource<>(this);
        }
    }
}
