package io.millrace.connector.kafka.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;

/**
 * A real Kafka broker for tests: one KRaft node that is broker and controller at once, in a child JVM started from
 * the test class path, listening on 127.0.0.1 at free ports. {@link #shared()} starts one per test JVM, on first
 * use, and a shutdown hook kills it and deletes its directory; the child also halts by itself when the test JVM is
 * gone. {@link #stop} and {@link #start} bounce it on the same ports and log directory.
 *
 * <p>Start-up: the log directory is formatted with a fresh cluster id ({@code kafka.tools.StorageTool format}),
 * then {@code kafka.Kafka} runs with a generated server.properties; the broker is ready when an admin client sees
 * it in the cluster, which must happen within {@link #START_TIMEOUT}.
 */
public final class KafkaTestBroker implements AutoCloseable {
    public static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static KafkaTestBroker shared;

    private final Path dir;
    private final int port;
    private final int controllerPort;
    private Process process;

    private KafkaTestBroker(Path dir) throws IOException {
        this.dir = dir;
        this.port = freePort();
        this.controllerPort = freePort();
        Files.writeString(dir.resolve("server.properties"), serverProperties());
        format();
    }

    /** The broker shared by all tests of this JVM, started on first call. */
    public static synchronized KafkaTestBroker shared() {
        if (shared == null) {
            try {
                KafkaTestBroker broker = new KafkaTestBroker(Files.createTempDirectory("millrace-kafka-broker"));
                Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "kafka-test-broker-stop"));
                broker.start();
                shared = broker;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return shared;
    }

    /** {@code host:port} for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** Starts the broker process and waits until it answers, at most {@link #START_TIMEOUT}. */
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            return;
        }
        try {
            process = java(List.of(BrokerMain.class.getName(), dir.resolve("server.properties").toString()), "broker.log");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        awaitReady();
    }

    /** Kills the broker process (SIGKILL) and waits until it is gone; its log directory stays for {@link #start}. */
    public synchronized void stop() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
    }

    /** An admin client of this broker; the caller closes it. */
    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000));
    }

    /** Creates a topic with the given partitions (replication factor 1) and waits for it. */
    public void createTopic(String topic, int partitions) {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not create topic " + topic + " on " + bootstrapServers(), e);
        }
    }

    /** The broker's output so far, for failure messages. */
    public Path logFile() {
        return dir.resolve("broker.log");
    }

    @Override
    public synchronized void close() {
        stop();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a test JVM on its way out: what is left is in the temp directory
        }
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        Exception last = null;
        try (Admin admin = admin()) {
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the test broker exited with " + process.exitValue() + ", see " + logFile());
                }
                try {
                    if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (Exception e) {
                    last = e;
                }
            }
        }
        stop();
        throw new IllegalStateException("the test broker did not answer within " + START_TIMEOUT + ", see " + logFile(), last);
    }

    private void format() throws IOException {
        Process format = java(List.of("kafka.tools.StorageTool", "format", "--cluster-id", Uuid.randomUuid().toString(),
                "--config", dir.resolve("server.properties").toString(), "--ignore-formatted"), "format.log");
        try {
            if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
                format.destroyForcibly();
                throw new IllegalStateException("formatting the test broker's log directory failed: "
                        + Files.readString(dir.resolve("format.log")));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while formatting the test broker", e);
        }
    }

    private Process java(List<String> mainAndArgs, String logName) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path")));
        command.addAll(mainAndArgs);
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(logName).toFile())).start();
    }

    private String serverProperties() throws IOException {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        p.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("log.dirs", dir.resolve("logs").toString());
        p.setProperty("auto.create.topics.enable", "false");
        p.setProperty("num.partitions", "1");
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("offsets.topic.num.partitions", "2");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("transaction.state.log.num.partitions", "2");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("log.segment.bytes", String.valueOf(16 * 1024 * 1024));
        StringBuilder b = new StringBuilder();
        p.stringPropertyNames().stream().sorted().forEach(k -> b.append(k).append('=').append(p.getProperty(k)).append('\n'));
        return b.toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
