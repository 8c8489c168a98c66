package io.millrace.connector.kafka;

import io.millrace.api.source.Boundedness;
import io.millrace.api.source.Source;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Reads Kafka topics. Every partition of the listed topics is a {@link KafkaPartitionSplit}; the partitions found when
 * the job starts are spread over the source's subtasks (partitions created later are not read). A reader consumes
 * its partitions with a {@code read_committed} consumer by default, so records of open or aborted transactions are
 * never seen, and emits each record with the record's timestamp as the source timestamp, per partition (a partition
 * is a split for watermarks and idleness). The offsets reached are stored in every checkpoint and a restored job
 * continues from exactly there, whatever its parallelism.
 *
 * <pre>{@code
 * KafkaSource<String> lines = KafkaSource.builder(KafkaRecordDeserializer.values(BytesDecoder.utf8()))
 *         .bootstrapServers("broker:9092").topics("readings").startingOffsets(StartingOffsets.earliest()).build();
 * }</pre>
 */
public final class KafkaSource<T> implements Source<T, KafkaPartitionSplit> {
    private final KafkaRecordDeserializer<T> deserializer;
    private final List<String> topics;
    private final StartingOffsets startingOffsets;
    private final boolean bounded;
    private final LinkedHashMap<String, String> properties;

    private KafkaSource(Builder<T> b) {
        this.deserializer = b.deserializer;
        this.topics = List.copyOf(b.topics);
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
     * One split per partition of the topics, ordered by topic and partition, each at its starting offset marker.
     *
     * @throws IllegalArgumentException naming the topic when a topic does not exist
     * @throws IllegalStateException naming {@code bootstrap.servers} when the brokers cannot be reached
     */
    @Override
    public List<KafkaPartitionSplit> createSplits(int parallelism) throws Exception {
        Map<String, Object> adminProps = new LinkedHashMap<>(properties);
        adminProps.keySet().removeIf(k -> !AdminClientConfig.configNames().contains(k));
        adminProps.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        List<KafkaPartitionSplit> splits = new ArrayList<>();
        long stop = bounded ? KafkaPartitionSplit.LATEST : KafkaPartitionSplit.UNBOUNDED;
        try (Admin admin = Admin.create(adminProps)) {
            for (String topic : topics) {
                TopicDescription d;
                try {
                    d = admin.describeTopics(List.of(topic)).allTopicNames().get(60, TimeUnit.SECONDS).get(topic);
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                        throw new IllegalArgumentException("Kafka source: topic '" + topic + "' does not exist on "
                                + properties.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG), e.getCause());
                    }
                    throw new IllegalStateException("Kafka source: could not describe topic '" + topic + "' on bootstrap.servers="
                            + properties.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG) + ": " + e.getCause(), e.getCause());
                } catch (TimeoutException e) {
                    throw new IllegalStateException("Kafka source: no answer from bootstrap.servers="
                            + properties.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG) + " within 60 s describing topic '" + topic + "'", e);
                }
                d.partitions().stream().sorted(Comparator.comparingInt(p -> p.partition())).forEach(p -> splits.add(
                        new KafkaPartitionSplit(topic, p.partition(), startingOffsets.of(new org.apache.kafka.common.TopicPartition(topic, p.partition())), stop)));
            }
        }
        return splits;
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

        /** The consumer group: needed for {@link StartingOffsets#committed()}. */
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
            if (topics.isEmpty()) {
                throw new IllegalArgumentException("Kafka source: option 'topics' is required: name at least one topic");
            }
            if (startingOffsets.needsGroup() && !properties.containsKey(ConsumerConfig.GROUP_ID_CONFIG)) {
                throw new IllegalArgumentException("Kafka source: starting from committed offsets needs option 'groupId'");
            }
            return new KafkaSource<>(this);
        }
    }
}
