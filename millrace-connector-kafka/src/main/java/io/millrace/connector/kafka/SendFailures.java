package io.millrace.connector.kafka;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Remembers the first record the brokers refused. The producer's I/O thread reports into it; the sink subtask's
 * thread rethrows it on its next write or flush, naming the topic and the reason.
 */
final class SendFailures implements Callback {
    private final String sinkName;
    private volatile RuntimeException first;

    SendFailures(String sinkName) {
        this.sinkName = sinkName;
    }

    @Override
    public void onCompletion(RecordMetadata metadata, Exception exception) {
        if (exception != null && first == null) {
            String where = metadata == null ? "" : " to " + metadata.topic() + (metadata.partition() >= 0 ? "-" + metadata.partition() : "");
            first = new IllegalStateException("Kafka sink '" + sinkName + "': a record could not be written" + where + ": " + exception, exception);
        }
    }

    void throwIfFailed() {
        RuntimeException e = first;
        if (e != null) {
            throw e;
        }
    }
}
