package io.millrace.server.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * A Mosquitto broker of the demo's own: Debian's {@code mosquitto} binary, run with a configuration in a temporary
 * directory that listens on 127.0.0.1 and a free port, without persistence, and with a window of 30,000 in-flight
 * QoS 1 messages (the source acknowledges only after checkpoints, see docs/mqtt.md). Its log is {@code mosquitto.log} in
 * that directory, which {@link #close} removes.
 */
final class MosquittoBroker implements AutoCloseable {
    /** Debian's package, for the error when the binary is missing. */
    static final String PACKAGE = "mosquitto";

    private final Path dir;
    private final int port;
    private final Process process;

    private MosquittoBroker(Path dir, int port, Process process) {
        this.dir = dir;
        this.port = port;
        this.process = process;
    }

    /**
     * The binary to run: {@code binary} when given, else {@code mosquitto} on the PATH, else Debian's
     * {@code /usr/sbin/mosquitto}; a {@link MqttDemo.BrokerMissingException} naming the package to install when none is there.
     */
    static Path binary(String binary) {
        if (binary != null) {
            Path p = Path.of(binary);
            if (!Files.isExecutable(p)) {
                throw new MqttDemo.BrokerMissingException("Mosquitto not found at " + binary + " (option --mosquitto): install Debian's package '"
                        + PACKAGE + "' (apt-get install " + PACKAGE + ") or give the path of the mosquitto binary");
            }
            return p;
        }
        for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, "mosquitto"))) {
                return Path.of(d, "mosquitto");
            }
        }
        Path debian = Path.of("/usr/sbin/mosquitto");
        if (Files.isExecutable(debian)) {
            return debian;
        }
        throw new MqttDemo.BrokerMissingException("the demo through MQTT needs the Mosquitto broker, which is not installed: install Debian's package '"
                + PACKAGE + "' (apt-get install " + PACKAGE + "), or give the binary with --mosquitto");
    }

    /** Starts the broker and returns once it listens (its log says it is running), at most 20 s. */
    static MosquittoBroker start(Path binary) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("millrace-demo-mosquitto");
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        StringBuilder conf = new StringBuilder()
                .append("listener ").append(port).append(" 127.0.0.1\n")
                .append("allow_anonymous true\n")
                .append("persistence false\n")
                .append("max_inflight_messages 30000\n")      // a wide window: the source acknowledges after checkpoints
                .append("max_queued_messages 1000000\n")
                .append("log_dest stderr\n")
                .append("log_type error\nlog_type warning\nlog_type notice\nlog_type information\n");
        if ("root".equals(System.getProperty("user.name"))) {
            conf.append("user root\n"); // else Mosquitto drops to user 'mosquitto'
        }
        Path confFile = dir.resolve("mosquitto.conf");
        Files.writeString(confFile, conf);
        Process process = new ProcessBuilder(binary.toString(), "-c", confFile.toString()).redirectErrorStream(true).start();
        CompletableFuture<Void> running = new CompletableFuture<>();
        Path log = dir.resolve("mosquitto.log");
        Thread logger = new Thread(() -> copyLog(process, log, running), "mosquitto-log");
        logger.setDaemon(true);
        logger.start();
        try {
            running.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            process.destroyForcibly();
            String text = Files.exists(log) ? Files.readString(log) : "";
            throw new IllegalStateException("Mosquitto (" + binary + ") did not start on 127.0.0.1:" + port
                    + (process.isAlive() ? "" : ", it exited") + "; its log:\n" + text, e);
        }
        return new MosquittoBroker(dir, port, process);
    }

    /** Copies the broker's output to its log; completes {@code running} at the line saying it runs, fails it at the end. */
    private static void copyLog(Process process, Path log, CompletableFuture<Void> running) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                out.write(line);
                out.write('\n');
                out.flush();
                if (line.contains(" running")) {
                    running.complete(null);
                }
            }
            running.completeExceptionally(new IOException("Mosquitto's output ended"));
        } catch (IOException e) {
            running.completeExceptionally(e);
        }
    }

    int port() {
        return port;
    }

    Path directory() {
        return dir;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a temporary directory left behind
        }
    }
}
