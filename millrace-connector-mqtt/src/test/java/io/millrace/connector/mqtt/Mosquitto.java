package io.millrace.connector.mqtt;

import io.millrace.testing.Await;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A real Mosquitto broker (Debian's package, installed by {@code scripts/test.sh} when missing) on 127.0.0.1 and a
 * free port, with its configuration, persistence file and log in a directory of its own. Persistence is on, so a
 * {@link #restart()} keeps persistent sessions and their queued QoS 1 and 2 messages (Mosquitto writes them at a
 * normal shutdown). Started once per test class.
 */
final class Mosquitto implements AutoCloseable {
    private final Path dir;
    private final int port;
    private Process process;

    private Mosquitto(Path dir, int port, String extraConfig) throws IOException {
        this.dir = dir;
        this.port = port;
        StringBuilder conf = new StringBuilder();
        conf.append("listener ").append(port).append(" 127.0.0.1\n");
        conf.append("allow_anonymous true\n");
        conf.append("persistence true\n");
        conf.append("persistence_location ").append(dir.toAbsolutePath()).append("/\n");
        conf.append("persistence_file mosquitto.db\n");
        conf.append("autosave_interval 60\n");
        conf.append("max_queued_messages 1000000\n");
        conf.append("max_queued_bytes 0\n");
        conf.append("queue_qos0_messages true\n");
        conf.append("persistent_client_expiration 1d\n");
        conf.append("log_dest file ").append(dir.toAbsolutePath().resolve("mosquitto.log")).append('\n');
        conf.append("log_type error\nlog_type warning\nlog_type notice\nlog_type information\n");
        if ("root".equals(System.getProperty("user.name"))) {
            conf.append("user root\n"); // else Mosquitto drops to user 'mosquitto', who cannot write the directory
        }
        conf.append(extraConfig);
        Files.writeString(dir.resolve("mosquitto.conf"), conf);
    }

    /** Starts a broker with the default test configuration plus {@code extraConfig} (lines of mosquitto.conf). */
    static Mosquitto start(Path dir, String extraConfig) throws IOException {
        Files.createDirectories(dir);
        Mosquitto m = new Mosquitto(dir, freePort(), extraConfig);
        m.start();
        return m;
    }

    static Mosquitto start(Path dir) throws IOException {
        return start(dir, "max_inflight_messages 1000\n");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Starts the broker process and waits until it accepts connections. */
    synchronized void start() throws IOException {
        if (process != null && process.isAlive()) {
            return;
        }
        process = new ProcessBuilder(binary(), "-c", dir.resolve("mosquitto.conf").toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("mosquitto.out").toFile()))
                .start();
        Process p = process;
        Await.until("Mosquitto accepts connections on port " + port + ", see " + dir.resolve("mosquitto.log"), Duration.ofSeconds(20),
                () -> !p.isAlive() || accepts());
        if (!p.isAlive()) {
            throw new IllegalStateException("Mosquitto exited with " + p.exitValue() + ", see " + dir.resolve("mosquitto.out") + ": "
                    + Files.readString(dir.resolve("mosquitto.out")));
        }
    }

    /** {@code mosquitto} on the PATH, else Debian's {@code /usr/sbin/mosquitto} (not on a normal user's PATH). */
    private static String binary() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, "mosquitto"))) {
                return Path.of(d, "mosquitto").toString();
            }
        }
        if (Files.isExecutable(Path.of("/usr/sbin/mosquitto"))) {
            return "/usr/sbin/mosquitto";
        }
        throw new IllegalStateException("Mosquitto is not installed: run scripts/test.sh, or apt-get install mosquitto");
    }

    private boolean accepts() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Stops the broker normally (SIGTERM): it writes its sessions and queued messages to the persistence file. */
    synchronized void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Stops and starts the broker on the same port; sessions and queued messages survive. */
    void restart() throws Exception {
        stop();
        start();
    }

    int port() {
        return port;
    }

    MqttServer server() {
        return MqttServer.of("127.0.0.1", port).withReconnectBackoff(Duration.ofMillis(50), Duration.ofSeconds(1));
    }

    Path log() {
        return dir.resolve("mosquitto.log");
    }

    @Override
    public void close() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
