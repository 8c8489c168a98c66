package io.millrace.connector.kafka;

import io.millrace.api.sink.Committer;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;

/**
 * Commits prepared Kafka transactions when their checkpoint completes, on the sink subtask's thread. A transaction
 * this process prepared is committed by the producer that wrote it; one from the checkpoint a job was restored from
 * is taken over by a new producer with the same transactional id, producer id and epoch
 * ({@link TransactionalProducer#resume}). Committing a transaction that is already committed succeeds, so a commit
 * may be repeated after a crash. A transaction the brokers aborted (its {@code transaction.timeout.ms} ran out before
 * the job came back) cannot be committed: the commit fails naming it.
 */
final class KafkaTransactionCommitter implements Committer<KafkaCommittable> {
    private final Map<String, Object> properties;
    private final Map<String, TransactionalProducer> prepared;
    private final String sinkName;

    KafkaTransactionCommitter(Map<String, Object> properties, Map<String, TransactionalProducer> prepared, String sinkName) {
        this.properties = properties;
        this.prepared = prepared;
        this.sinkName = sinkName;
    }

    @Override
    public void commit(List<KafkaCommittable> committables) {
        for (KafkaCommittable c : committables) {
            TransactionalProducer own = prepared.remove(c.transactionalId());
            TransactionalProducer producer = own != null ? own : TransactionalProducer.resume(properties, c);
            try {
                producer.commit();
            } catch (ProducerFencedException | InvalidTxnStateException e) {
                throw new IllegalStateException("Kafka sink '" + sinkName + "': transaction " + c.transactionalId() + " (producer id "
                        + c.producerId() + ", epoch " + c.epoch() + ") can no longer be committed; it was aborted or taken over,"
                        + " most likely because the job was down longer than transaction.timeout.ms: " + e, e);
            } finally {
                producer.close();
            }
        }
    }

    /**
     * Leaves this subtask's prepared transactions open: they are in a checkpoint and will be committed by whoever
     * restores it.
     */
    @Override
    public void close() {
        for (TransactionalProducer p : prepared.values()) {
            p.closeNow();
        }
        prepared.clear();
    }
}
