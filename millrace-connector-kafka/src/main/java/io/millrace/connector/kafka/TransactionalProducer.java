package io.millrace.connector.kafka;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.internals.ProducerIdAndEpoch;

/**
 * A transactional producer of one transactional id, with the two things the public producer API of kafka-clients 4.4
 * lacks for a two-phase commit across processes: reading the producer id and epoch of the open transaction
 * ({@link #prepared}), and taking over a transaction another producer prepared so as to commit it
 * ({@link #resume}). Both reach into the producer's transaction manager by reflection: {@code producerIdAndEpoch},
 * {@code currentState}, {@code transactionStarted} and {@code isTransactionV2Enabled} of
 * {@code org.apache.kafka.clients.producer.internals.TransactionManager}. A client whose internals differ fails
 * here, at the first checkpoint, with an error naming the field, never silently.
 *
 * <p>Used by one thread at a time.
 */
final class TransactionalProducer implements AutoCloseable {
    private static final Field TRANSACTION_MANAGER = field(KafkaProducer.class, "transactionManager");
    private static final Class<?> MANAGER_CLASS = TRANSACTION_MANAGER.getType();
    private static final Field ID_AND_EPOCH = field(MANAGER_CLASS, "producerIdAndEpoch");
    private static final Field STATE = field(MANAGER_CLASS, "currentState");
    private static final Field STARTED = field(MANAGER_CLASS, "transactionStarted");
    private static final Field TRANSACTION_V2 = field(MANAGER_CLASS, "isTransactionV2Enabled");

    final String transactionalId;
    final KafkaProducer<byte[], byte[]> producer;

    private TransactionalProducer(Map<String, Object> properties, String transactionalId) {
        Map<String, Object> props = new LinkedHashMap<>(properties);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        this.transactionalId = transactionalId;
        this.producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * A producer that registered {@code transactionalId} with its transaction coordinator ({@code initTransactions}):
     * an open transaction of that id is aborted, and every earlier producer of that id is fenced.
     */
    static TransactionalProducer initialized(Map<String, Object> properties, String transactionalId) {
        TransactionalProducer p = new TransactionalProducer(properties, transactionalId);
        try {
            p.producer.initTransactions();
        } catch (RuntimeException e) {
            p.closeNow();
            throw e;
        }
        return p;
    }

    /** A producer that takes over the prepared transaction {@code c}; only {@link #commit} is meant to follow. */
    static TransactionalProducer resume(Map<String, Object> properties, KafkaCommittable c) {
        TransactionalProducer p = new TransactionalProducer(properties, c.transactionalId());
        try {
            Object manager = TRANSACTION_MANAGER.get(p.producer);
            synchronized (manager) {
                ID_AND_EPOCH.set(manager, new ProducerIdAndEpoch(c.producerId(), c.epoch()));
                TRANSACTION_V2.setBoolean(manager, c.transactionV2());
                STATE.set(manager, state("IN_TRANSACTION"));
                STARTED.setBoolean(manager, true);
            }
        } catch (ReflectiveOperationException e) {
            p.closeNow();
            throw new IllegalStateException("Kafka sink: cannot resume transaction " + c.transactionalId()
                    + " with this kafka-clients version", e);
        }
        return p;
    }

    /** The producer id and epoch of this producer's transaction, after {@code initTransactions}. */
    KafkaCommittable prepared() {
        try {
            Object manager = TRANSACTION_MANAGER.get(producer);
            ProducerIdAndEpoch idAndEpoch = (ProducerIdAndEpoch) ID_AND_EPOCH.get(manager);
            return new KafkaCommittable(transactionalId, idAndEpoch.producerId, idAndEpoch.epoch, TRANSACTION_V2.getBoolean(manager));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Kafka sink: cannot read the producer id of transaction " + transactionalId, e);
        }
    }

    void commit() {
        producer.commitTransaction();
    }

    /** Closes without aborting: a prepared transaction stays open for whoever commits it. */
    void closeNow() {
        producer.close(Duration.ZERO);
    }

    /** Closes after the transaction ended (committed or aborted). */
    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object state(String name) {
        return Enum.valueOf((Class<? extends Enum>) STATE.getType(), name);
    }

    private static Field field(Class<?> owner, String name) {
        try {
            Field f = owner.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("Kafka sink: this kafka-clients version has no field " + owner.getName() + "." + name
                    + ", which exactly-once delivery needs (written for kafka-clients 4.4)", e);
        }
    }
}
