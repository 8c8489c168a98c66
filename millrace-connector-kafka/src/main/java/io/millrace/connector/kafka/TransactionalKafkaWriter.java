package io.millrace.connector.kafka;

import io.millrace.api.sink.CommittingSinkWriter;
import io.millrace.api.sink.SinkContext;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Exactly once: the records between two checkpoint barriers go into one Kafka transaction of this subtask, opened at
 * the first record after a barrier with its own transactional id ({@link TransactionalIds}). On a barrier the
 * transaction is flushed and handed, open, to the committer ({@code prepared}, keyed by transactional id) together
 * with its committable, which goes into the checkpoint. A checkpoint with no record since the last one prepares
 * nothing. Called on the sink subtask's thread only.
 */
final class TransactionalKafkaWriter<T> implements CommittingSinkWriter<T, KafkaCommittable> {
    private final Map<String, Object> properties;
    private final KafkaRecordSerializer<T> serializer;
    private final int subtask;
    private final TransactionalIds ids;
    private final Map<String, TransactionalProducer> prepared;
    private final SendFailures failures;
    /** Number of the next transaction: the checkpoint expected to prepare it. */
    private long next;
    private TransactionalProducer current;

    TransactionalKafkaWriter(Map<String, Object> properties, KafkaRecordSerializer<T> serializer, SinkContext context,
            TransactionalIds ids, Map<String, TransactionalProducer> prepared, long restoredCheckpointId, String sinkName) {
        this.properties = properties;
        this.serializer = serializer;
        this.subtask = context.subtaskIndex();
        this.ids = ids;
        this.prepared = prepared;
        this.failures = new SendFailures(sinkName);
        this.next = Math.max(0, restoredCheckpointId) + 1;
    }

    @Override
    public void write(T value, long timestamp) throws Exception {
        failures.throwIfFailed();
        ProducerRecord<byte[], byte[]> record = serializer.serialize(value, timestamp);
        if (record == null) {
            return;
        }
        if (current == null) {
            current = TransactionalProducer.initialized(properties, ids.of(subtask, next));
            current.producer.beginTransaction();
        }
        current.producer.send(record, failures);
    }

    @Override
    public void flush(boolean endOfInput) {
        failures.throwIfFailed();
    }

    @Override
    public List<KafkaCommittable> prepareCommit(long checkpointId) {
        if (checkpointId != Long.MAX_VALUE) {
            next = Math.max(next, checkpointId + 1);
        }
        if (current == null) {
            return List.of();
        }
        current.producer.flush();
        failures.throwIfFailed();
        KafkaCommittable c = current.prepared();
        prepared.put(c.transactionalId(), current);
        current = null;
        return List.of(c);
    }

    /** Aborts the open transaction (nothing of it is in a checkpoint); prepared ones stay for the committer. */
    @Override
    public void close() {
        if (current != null) {
            try {
                current.producer.abortTransaction();
            } catch (RuntimeException e) {
                // the broker aborts it after transaction.timeout.ms, or the next run's abortLingering does
            } finally {
                current.close();
                current = null;
            }
        }
    }
}
