package io.millrace.connector.jdbc.server;

import io.millrace.testing.Await;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server for the tests, in a temporary directory: {@code initdb} of a fresh cluster, then the
 * {@code postgres} server on 127.0.0.1 and a free port (no Unix socket), with {@code max_prepared_transactions=64},
 * {@code wal_level=logical} and, for speed, {@code fsync=off}; user {@code millrace}, trusted, database
 * {@code postgres}.
 *
 * <p>The binaries are those of {@code MILLRACE_PG_BIN} when set, else the newest {@code /usr/lib/postgresql/<n>/bin}
 * (Debian's {@code postgresql-<n>} package; scripts/test.sh installs {@code postgresql-15} when there is none).
 * PostgreSQL refuses to run as root: when the tests run as root, the server and {@code initdb} run as the system user
 * {@code postgres}, or {@code millrace-pg} (created with {@code useradd --system} when neither exists), through
 * {@code setpriv}, and the directory is given to that user. {@link #stop} and {@link #start} stop the server (fast
 * shutdown) and start it again on the same port and data; {@link #close} stops it and deletes the directory.
 */
public final class PostgresTestServer implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Path bin;
    private final Path dir;
    private final Path data;
    private final String runAs;
    private final int port;
    private Process server;

    private PostgresTestServer(Path bin, Path dir, String runAs, int port) {
        this.bin = bin;
        this.dir = dir;
        this.data = dir.resolve("data");
        this.runAs = runAs;
        this.port = port;
    }

    /** Makes a new cluster in a temporary directory and starts its server. */
    public static PostgresTestServer started() {
        try {
            Path bin = binaries();
            String runAs = unprivilegedUser();
            // under /tmp when the server runs as another user: it must reach the directory through every parent
            Path dir = runAs == null ? Files.createTempDirectory("millrace-pg-") : Files.createTempDirectory(Path.of("/tmp"), "millrace-pg-");
            if (runAs != null) {
                run(List.of("chown", runAs + ":", dir.toString()), "chown of " + dir);
            }
            PostgresTestServer s = new PostgresTestServer(bin, dir, runAs, freePort());
            s.initdb();
            Runtime.getRuntime().addShutdownHook(new Thread(s::kill, "postgres-test-server-kill"));
            s.start();
            return s;
        } catch (IOException e) {
            throw new IllegalStateException("cannot set up the PostgreSQL test server: " + e, e);
        }
    }

    /** {@code jdbc:postgresql://127.0.0.1:<port>/postgres}. */
    public String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    public String user() {
        return "millrace";
    }

    public int port() {
        return port;
    }

    /** A new connection in auto-commit mode; the caller closes it. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), user(), "");
    }

    /** Runs SQL statements, each in auto-commit. */
    public void execute(String... sql) {
        try (Connection c = connect(); var s = c.createStatement()) {
            for (String statement : sql) {
                s.execute(statement);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("SQL failed on the test server: " + e.getMessage(), e);
        }
    }

    /** Starts the server process and waits until it takes connections. */
    public synchronized void start() {
        if (server != null && server.isAlive()) {
            return;
        }
        try {
            server = new ProcessBuilder(asUser(bin.resolve("postgres").toString(), "-D", data.toString()))
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("server.log").toFile()))
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + bin.resolve("postgres") + ": " + e, e);
        }
        Process p = server;
        Await.until("PostgreSQL on port " + port + " takes connections, see " + dir.resolve("server.log"), START_TIMEOUT, () -> {
            if (!p.isAlive()) {
                throw new IllegalStateException("PostgreSQL exited with " + p.exitValue() + ": " + log());
            }
            try (Connection c = connect()) {
                return c.isValid(5);
            } catch (SQLException e) {
                return false;
            }
        });
    }

    /** Stops the server (fast shutdown: open transactions are aborted, prepared ones kept) and waits until it is gone. */
    public synchronized void stop() {
        if (server == null || !server.isAlive()) {
            return;
        }
        try {
            run(asUser(bin.resolve("pg_ctl").toString(), "stop", "-D", data.toString(), "-m", "fast", "-w", "-t", "60"), "pg_ctl stop");
            if (!server.waitFor(60, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.destroyForcibly();
        }
    }

    /** The server's log so far. */
    public String log() {
        try {
            return Files.readString(dir.resolve("server.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        stop();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a temporary directory: the system cleans it up eventually
        }
    }

    private void kill() {
        Process p = server;
        if (p != null && p.isAlive()) {
            p.destroyForcibly();
        }
    }

    private void initdb() throws IOException {
        run(asUser(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", user(), "--auth=trust", "-E", "UTF8",
                "--locale=C", "--no-sync", "--no-instructions"), "initdb");
        String settings = String.join("\n",
                "", "# the test server's settings",
                "listen_addresses = '127.0.0.1'",
                "port = " + port,
                "unix_socket_directories = ''",
                "max_prepared_transactions = 64",
                "wal_level = logical",
                "track_commit_timestamp = on",
                "max_connections = 100",
                "shared_buffers = 32MB",
                "fsync = off",
                "synchronous_commit = off",
                "full_page_writes = off",
                "");
        Files.writeString(data.resolve("postgresql.conf"), settings, java.nio.file.StandardOpenOption.APPEND);
    }

    private List<String> asUser(String... command) {
        List<String> c = new ArrayList<>();
        if (runAs != null) {
            c.addAll(List.of("setpriv", "--reuid=" + runAs, "--regid=" + runAs, "--clear-groups", "--"));
        }
        c.addAll(List.of(command));
        return c;
    }

    /** Newest {@code /usr/lib/postgresql/<n>/bin} with {@code initdb}, or {@code MILLRACE_PG_BIN}. */
    static Path binaries() throws IOException {
        String given = System.getenv("MILLRACE_PG_BIN");
        if (given != null && !given.isBlank()) {
            return Path.of(given);
        }
        Path root = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(root)) {
            try (Stream<Path> versions = Files.list(root)) {
                var found = versions.map(v -> v.resolve("bin"))
                        .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("postgres")))
                        .max(Comparator.comparingInt(b -> version(b.getParent().getFileName().toString())));
                if (found.isPresent()) {
                    return found.get();
                }
            }
        }
        throw new IllegalStateException("no PostgreSQL server binaries: install Debian's postgresql-15 (scripts/test.sh does when"
                + " none is there) or set MILLRACE_PG_BIN to a directory with initdb and postgres");
    }

    private static int version(String name) {
        try {
            return Integer.parseInt(name);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Null when not root; else 'postgres' if that user exists, else 'millrace-pg', created when missing. */
    static String unprivilegedUser() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return null;
        }
        if (userExists("postgres")) {
            return "postgres";
        }
        if (!userExists("millrace-pg")) {
            run(List.of("useradd", "--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", "millrace-pg"),
                    "useradd millrace-pg");
        }
        return "millrace-pg";
    }

    private static boolean userExists(String name) {
        try {
            return new ProcessBuilder("id", "-u", name).redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void run(List<String> command, String what) {
        try {
            // a working directory the unprivileged user can read: initdb looks its own directory up
            Process p = new ProcessBuilder(command).directory(new java.io.File("/")).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(what + " failed (" + String.join(" ", command) + "): " + out);
            }
        } catch (IOException e) {
            throw new IllegalStateException(what + " failed to start: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + " interrupted", e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
