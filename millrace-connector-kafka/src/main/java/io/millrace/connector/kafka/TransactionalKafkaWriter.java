package io.millrace.connector.kafka;

import io.millrace.api.sink.CommittingSinkWriter;
import io.millrace.api.sink.SinkContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Exactly once: the records between two checkpoint barriers go into one Kafka transaction of this subtask, opened at
 * the first record after a barrier with its own transactional id ({@link TransactionalIds}). On a barrier the
 * transaction is flushed and handed, open, to the committer ({@code prepared}, keyed by transactional id) together
 * with its committable, which goes into the checkpoint. A checkpoint with no record since the last one prepares
 * nothing. Called on the sink subtask's thread only.
 *
 * <p>When a transaction begins, the producer of the one after it (numbered one higher: the next checkpoint's) is
 * created and registered ({@code initTransactions}, which waits for the transaction coordinator) on a thread of its
 * own, so that the subtask's thread does not wait for that at the first record after the barrier. It is the producer
 * that record would otherwise have made: the same transactional id, and no transaction of it is open before that
 * record, so recovery finds nothing of it to abort. When the id turns out not to be the next one (a barrier without
 * records since the last, a checkpoint number skipped), it is closed and the record makes its own.
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
    /** The next transaction's producer being registered on another thread, for {@link #upcomingId}; or null. */
    private CompletableFuture<TransactionalProducer> upcoming;
    private String upcomingId;

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
            current = producerFor(ids.of(subtask, next));
            current.producer.beginTransaction();
            registerAhead(ids.of(subtask, next + 1));
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
            if (upcoming != null && !upcomingId.equals(ids.of(subtask, next))) {
                dropUpcoming();
            }
            return List.of();
        }
        current.producer.flush();
        failures.throwIfFailed();
        KafkaCommittable c = current.prepared();
        prepared.put(c.transactionalId(), current);
        current = null;
        return List.of(c);
    }

    /** Starts registering the producer of transaction {@code id} on a thread of its own. */
    private void registerAhead(String id) {
        if (upcoming != null) {
            dropUpcoming();
        }
        upcomingId = id;
        upcoming = CompletableFuture.supplyAsync(() -> TransactionalProducer.initialized(properties, id), task -> {
            Thread t = new Thread(task, "kafka-sink-" + id);
            t.setDaemon(true);
            t.start();
        });
    }

    /** The registered producer of transaction {@code id}: the one made ahead if it was made for {@code id}. */
    private TransactionalProducer producerFor(String id) {
        if (upcoming != null) {
            if (upcomingId.equals(id)) {
                CompletableFuture<TransactionalProducer> f = upcoming;
                upcoming = null;
                try {
                    return f.join();
                } catch (CompletionException e) {
                    if (e.getCause() instanceof RuntimeException) {
                        throw (RuntimeException) e.getCause();
                    }
                    throw e;
                }
            }
            dropUpcoming();
        }
        return TransactionalProducer.initialized(properties, id);
    }

    /** Closes the producer made ahead once it is ready (it has no open transaction); a failure to make it is moot. */
    private void dropUpcoming() {
        upcoming.whenComplete((p, e) -> {
            if (p != null) {
                p.closeNow();
            }
        });
        upcoming = null;
        upcomingId = null;
    }

    /** Aborts the open transaction (nothing of it is in a checkpoint); prepared ones stay for the committer. */
    @Override
    public void close() {
        if (upcoming != null) {
            dropUpcoming();
        }
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
