package io.millrace.connector.kafka;

import io.millrace.api.sink.CommittingSinkWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * At least once: one idempotent producer per subtask; a checkpoint barrier waits until every record sent before it is
 * acknowledged ({@code flush}), so a completed checkpoint never depends on a record the brokers do not have. Prepares
 * nothing to commit. Called on the sink subtask's thread only.
 */
final class AtLeastOnceKafkaWriter<T> implements CommittingSinkWriter<T, KafkaCommittable> {
    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaRecordSerializer<T> serializer;
    private final SendFailures failures;

    AtLeastOnceKafkaWriter(Map<String, Object> properties, KafkaRecordSerializer<T> serializer, String sinkName) {
        this.producer = new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
        this.serializer = serializer;
        this.failures = new SendFailures(sinkName);
    }

    @Override
    public void write(T value, long timestamp) throws Exception {
        failures.throwIfFailed();
        ProducerRecord<byte[], byte[]> record = serializer.serialize(value, timestamp);
        if (record != null) {
            producer.send(record, failures);
        }
    }

    @Override
    public void flush(boolean endOfInput) {
        if (endOfInput) {
            producer.flush();
        }
        failures.throwIfFailed();
    }

    @Override
    public List<KafkaCommittable> prepareCommit(long checkpointId) {
        producer.flush();
        failures.throwIfFailed();
        return List.of();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
