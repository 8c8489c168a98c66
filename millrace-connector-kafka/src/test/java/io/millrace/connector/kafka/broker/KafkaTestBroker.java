package io.millrace.connector.kafka.broker;

import io.millrace.kafka.local.LocalKafkaBroker;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.kafka.clients.admin.Admin;

/**
 * The real Kafka broker of the tests: a {@link LocalKafkaBroker} (one KRaft node in a child JVM, on free ports of
 * 127.0.0.1) shared by all tests of a JVM. {@link #shared()} starts it on first use; a shutdown hook kills it and
 * deletes its directory, and the child halts by itself when the test JVM is gone. {@link #stop} and {@link #start}
 * bounce it on the same ports and log directory.
 */
public final class KafkaTestBroker implements AutoCloseable {
    public static final Duration START_TIMEOUT = LocalKafkaBroker.START_TIMEOUT;
    private static KafkaTestBroker shared;

    private final LocalKafkaBroker broker;

    private KafkaTestBroker(LocalKafkaBroker broker) {
        this.broker = broker;
    }

    /** The broker shared by all tests of this JVM, started on first call. */
    public static synchronized KafkaTestBroker shared() {
        if (shared == null) {
            KafkaTestBroker broker = new KafkaTestBroker(LocalKafkaBroker.inTemporaryDirectory());
            Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "kafka-test-broker-stop"));
            broker.start();
            shared = broker;
        }
        return shared;
    }

    /**
     * A broker of its own, started, for a test that stops or kills its broker: the shared one then stays healthy for
     * the tests after it (a broker restarted after SIGKILL answers with retriable errors for a while). The caller
     * closes it.
     */
    public static KafkaTestBroker started() {
        KafkaTestBroker broker = new KafkaTestBroker(LocalKafkaBroker.inTemporaryDirectory());
        broker.start();
        return broker;
    }

    /** {@code host:port} for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** Starts the broker process and waits until it answers, at most {@link #START_TIMEOUT}. */
    public void start() {
        broker.start();
    }

    /** Kills the broker process (SIGKILL) and waits until it is gone; its log directory stays for {@link #start}. */
    public void stop() {
        broker.stop();
    }

    /** An admin client of this broker; the caller closes it. */
    public Admin admin() {
        return broker.admin();
    }

    /** Creates a topic with the given partitions (replication factor 1) and waits for it. */
    public void createTopic(String topic, int partitions) {
        broker.createTopic(topic, partitions);
    }

    /** The broker's output so far, for failure messages. */
    public Path logFile() {
        return broker.logFile();
    }

    @Override
    public void close() {
        broker.close();
    }
}
