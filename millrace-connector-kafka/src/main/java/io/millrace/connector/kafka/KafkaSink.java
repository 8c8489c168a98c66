package io.millrace.connector.kafka;

import io.millrace.api.sink.Committer;
import io.millrace.api.sink.CommittingSinkWriter;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.sink.TwoPhaseCommitSink;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Writes to Kafka, at least once or exactly once ({@link DeliveryGuarantee}). Both run on the two-phase-commit sink
 * contract, so that the writer hears of every checkpoint barrier: at least once, the barrier waits until the brokers
 * acknowledged every record sent before it; exactly once, it also ends the subtask's Kafka transaction as prepared,
 * and the transaction is committed when the checkpoint completes. See docs/kafka.md for the contract and its limits.
 *
 * <pre>{@code
 * KafkaSink<Reading> sink = KafkaSink.builder(KafkaRecordSerializer.utf8("alarms", Reading::machine))
 *         .bootstrapServers("broker:9092").exactlyOnce("plant-7-alarms").build();
 * }</pre>
 */
public final class KafkaSink<T> implements TwoPhaseCommitSink<T, KafkaCommittable>,
        io.millrace.api.sink.versioned.VersionedCommittables<KafkaCommittable> {
    private final KafkaRecordSerializer<T> serializer;
    private final DeliveryGuarantee guarantee;
    private final String transactionalIdPrefix;
    private final LinkedHashMap<String, String> properties;
    /**
     * Per subtask, the producers of its prepared transactions by transactional id, handed from the subtask's writer to
     * its committer (one sink object may serve all subtasks of the job).
     */
    private transient volatile Map<Integer, Map<String, TransactionalProducer>> prepared;
    /** The checkpoint each subtask was restored from, as {@link #abortLingering} (called before the writer) heard it. */
    private transient volatile Map<Integer, Long> restoredFrom;

    private KafkaSink(Builder<T> b) {
        this.serializer = b.serializer;
        this.guarantee = b.guarantee;
        this.transactionalIdPrefix = b.transactionalIdPrefix;
        this.properties = new LinkedHashMap<>(b.properties);
    }

    public static <T> Builder<T> builder(KafkaRecordSerializer<T> serializer) {
        return new Builder<>(serializer);
    }

    public DeliveryGuarantee guarantee() {
        return guarantee;
    }

    @Override
    public CommittingSinkWriter<T, KafkaCommittable> createWriter(SinkContext context) {
        Map<String, Object> props = producerProperties(context);
        if (guarantee == DeliveryGuarantee.AT_LEAST_ONCE) {
            return new AtLeastOnceKafkaWriter<>(props, serializer, context.sinkName());
        }
        long restored = restoredFrom().getOrDefault(context.subtaskIndex(), -1L);
        return new TransactionalKafkaWriter<>(props, serializer, context, new TransactionalIds(transactionalIdPrefix),
                prepared(context.subtaskIndex()), restored, context.sinkName());
    }

    @Override
    public Committer<KafkaCommittable> createCommitter(SinkContext context) {
        return new KafkaTransactionCommitter(producerProperties(context), prepared(context.subtaskIndex()), context.sinkName());
    }

    /**
     * Exactly once: aborts what this subtask's earlier runs left open after {@code restoredCheckpointId}, and remembers
     * that checkpoint so that the subtask's writer numbers its transactions after it.
     */
    @Override
    public void abortLingering(SinkContext context, long restoredCheckpointId) throws Exception {
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            restoredFrom().putIfAbsent(context.subtaskIndex(), restoredCheckpointId);
            new LingeringTransactions(producerProperties(context), new TransactionalIds(transactionalIdPrefix), context.sinkName())
                    .abortAfter(context.subtaskIndex(), restoredCheckpointId);
        }
    }

    /** Prepared transactions are stored in checkpoints as version 1 of {@link KafkaCommittable.Codec}. */
    @Override
    public io.millrace.api.source.VersionedCodec<KafkaCommittable> committableCodec() {
        return new KafkaCommittable.Codec();
    }

    private Map<String, TransactionalProducer> prepared(int subtask) {
        Map<Integer, Map<String, TransactionalProducer>> p = prepared;
        if (p == null) {
            synchronized (this) {
                if (prepared == null) {
                    prepared = new ConcurrentHashMap<>();
                }
                p = prepared;
            }
        }
        return p.computeIfAbsent(subtask, s -> new ConcurrentHashMap<>());
    }

    private Map<Integer, Long> restoredFrom() {
        Map<Integer, Long> r = restoredFrom;
        if (r == null) {
            synchronized (this) {
                if (restoredFrom == null) {
                    restoredFrom = new ConcurrentHashMap<>();
                }
                r = restoredFrom;
            }
        }
        return r;
    }

    private Map<String, Object> producerProperties(SinkContext context) {
        Map<String, Object> props = new LinkedHashMap<>(properties);
        props.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, context.sinkName() + "-" + context.subtaskIndex());
        return props;
    }

    /** Options of a {@link KafkaSink}; {@code bootstrapServers} is required, the guarantee is at least once unless set. */
    public static final class Builder<T> {
        private final KafkaRecordSerializer<T> serializer;
        private DeliveryGuarantee guarantee = DeliveryGuarantee.AT_LEAST_ONCE;
        private String transactionalIdPrefix;
        private final LinkedHashMap<String, String> properties = new LinkedHashMap<>();

        private Builder(KafkaRecordSerializer<T> serializer) {
            this.serializer = Objects.requireNonNull(serializer, "serializer");
            properties.put(ProducerConfig.ACKS_CONFIG, "all");
            properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
            properties.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "900000");
        }

        public Builder<T> bootstrapServers(String servers) {
            return property(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        }

        /** At least once (the default). */
        public Builder<T> atLeastOnce() {
            this.guarantee = DeliveryGuarantee.AT_LEAST_ONCE;
            this.transactionalIdPrefix = null;
            return this;
        }

        /**
         * Exactly once through Kafka transactions. {@code transactionalIdPrefix} names this sink's transactions
         * ({@code <prefix>-<subtask>-<checkpoint>}): it must stay the same when the job restarts or is restored, and no
         * other sink, job or Kafka client may use ids that start with it.
         */
        public Builder<T> exactlyOnce(String transactionalIdPrefix) {
            if (transactionalIdPrefix == null || transactionalIdPrefix.isBlank()) {
                throw new IllegalArgumentException("Kafka sink: exactly-once needs option 'transactionalIdPrefix', unique to this job and sink");
            }
            this.guarantee = DeliveryGuarantee.EXACTLY_ONCE;
            this.transactionalIdPrefix = transactionalIdPrefix;
            return this;
        }

        /**
         * Any producer property ({@code security.protocol}, {@code compression.type}, {@code linger.ms},
         * {@code transaction.timeout.ms}, default 15 minutes, which must be longer than the longest time a job may be
         * down before it restarts...). Set by the sink and not to be given: the serializers and {@code transactional.id}.
         */
        public Builder<T> property(String key, String value) {
            if (key.equals(ProducerConfig.TRANSACTIONAL_ID_CONFIG) || key.equals(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG)
                    || key.equals(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG)) {
                throw new IllegalArgumentException("Kafka sink: property '" + key + "' is set by the sink and cannot be given");
            }
            if (!ProducerConfig.configNames().contains(key)) {
                throw new IllegalArgumentException("Kafka sink: '" + key + "' is not a Kafka producer property");
            }
            properties.put(key, Objects.requireNonNull(value, key));
            return this;
        }

        public KafkaSink<T> build() {
            if (!properties.containsKey(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)) {
                throw new IllegalArgumentException("Kafka sink: option 'bootstrapServers' is required");
            }
            return new KafkaSink<>(this);
        }
    }
}
