package io.millrace.kafka.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
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
 * A real Kafka broker on this machine: one KRaft node that is broker and controller at once, in a child JVM,
 * listening on 127.0.0.1 at free ports, with its log directory in a directory of the caller's. It is what
 * {@code millrace demo --kafka} starts when no broker is given, and what the connector's tests run against.
 *
 * <p>The child JVM runs {@link LocalBrokerMain} from the given class path, which must hold the Kafka broker's
 * artifacts ({@code kafka_2.13} and its dependencies); it halts by itself when its parent is gone. {@link #stop}
 * kills it (SIGKILL) and {@link #start} starts it again on the same ports and log directory.
 *
 * <p>Start-up: the log directory is formatted with a fresh cluster id ({@code kafka.tools.StorageTool format}),
 * then the broker runs with a generated server.properties; it is ready when its port accepts connections and an
 * admin client sees it in the cluster, which must happen within {@link #START_TIMEOUT}.
 */
public final class LocalKafkaBroker implements AutoCloseable {
    public static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    /** The broker JVM's options unless given: small and quick to start, for tests and the demo. */
    public static final List<String> QUICK_START_OPTIONS = List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private final Path dir;
    private final String classPath;
    private final boolean deleteOnClose;
    private final List<String> jvmOptions;
    private final int port;
    private final int controllerPort;
    private Process process;

    /**
     * A broker with its files in {@code dir} (created if missing), run from {@code classPath}; not started yet.
     * {@link #close} leaves the directory in place.
     */
    public LocalKafkaBroker(Path dir, String classPath) {
        this(dir, classPath, false, QUICK_START_OPTIONS);
    }

    private LocalKafkaBroker(Path dir, String classPath, boolean deleteOnClose, List<String> jvmOptions) {
        this.dir = dir;
        this.classPath = classPath;
        this.deleteOnClose = deleteOnClose;
        this.jvmOptions = List.copyOf(jvmOptions);
        try {
            Files.createDirectories(dir);
            this.port = freePort();
            this.controllerPort = freePort();
            Files.writeString(dir.resolve("server.properties"), serverProperties());
            format();
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare a local Kafka broker in " + dir, e);
        }
    }

    /**
     * A broker in a new temporary directory, run from this JVM's class path; not started yet. {@link #close} deletes
     * the directory.
     */
    public static LocalKafkaBroker inTemporaryDirectory() {
        return inTemporaryDirectory(QUICK_START_OPTIONS);
    }

    /**
     * A broker in a new temporary directory, run from this JVM's class path with the given JVM options (heap, GC,
     * compiler: {@link #QUICK_START_OPTIONS} for a quick start, a full JIT and a larger heap for a benchmark); not
     * started yet. {@link #close} deletes the directory.
     */
    public static LocalKafkaBroker inTemporaryDirectory(List<String> jvmOptions) {
        try {
            return new LocalKafkaBroker(Files.createTempDirectory("millrace-kafka-broker"), System.getProperty("java.class.path"), true, jvmOptions);
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a directory for a local Kafka broker", e);
        }
    }

    /** {@code host:port} for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** Starts the broker process and waits until it answers, at most {@link #START_TIMEOUT}; no-op when running. */
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            return;
        }
        try {
            process = java(List.of(LocalBrokerMain.class.getName(), dir.resolve("server.properties").toString()), "broker.log");
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the local Kafka broker's JVM", e);
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

    /** The broker's output so far, for error messages. */
    public Path logFile() {
        return dir.resolve("broker.log");
    }

    /** Stops the broker; a broker made by {@link #inTemporaryDirectory} also deletes its directory. */
    @Override
    public synchronized void close() {
        stop();
        if (!deleteOnClose) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a JVM on its way out: what is left is in the temp directory
        }
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        awaitPort(deadline);
        Exception last = null;
        try (Admin admin = admin()) {
            while (System.nanoTime() < deadline) {
                checkAlive();
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
        throw new IllegalStateException("the local Kafka broker did not answer within " + START_TIMEOUT + ", see " + logFile(), last);
    }

    /**
     * Waits until the listener accepts connections, so that clients do not log failed connection attempts; between
     * attempts it waits up to 100 ms for the broker process to exit, which ends the wait at once with its exit code.
     */
    private void awaitPort(long deadline) {
        while (System.nanoTime() < deadline) {
            checkAlive();
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1_000);
                return;
            } catch (IOException notYet) {
                try {
                    process.waitFor(100, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the local Kafka broker", e);
                }
            }
        }
    }

    private void checkAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException("the local Kafka broker exited with " + process.exitValue() + ", see " + logFile());
        }
    }

    private void format() throws IOException {
        Process format = java(List.of("kafka.tools.StorageTool", "format", "--cluster-id", Uuid.randomUuid().toString(),
                "--config", dir.resolve("server.properties").toString(), "--ignore-formatted"), "format.log");
        try {
            if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
                format.destroyForcibly();
                throw new IllegalStateException("formatting the local Kafka broker's log directory failed: "
                        + Files.readString(dir.resolve("format.log")));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while formatting the local Kafka broker's log directory", e);
        }
    }

    private Process java(List<String> mainAndArgs, String logName) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath));
        command.addAll(mainAndArgs);
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(logName).toFile())).start();
    }

    private String serverProperties() {
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
