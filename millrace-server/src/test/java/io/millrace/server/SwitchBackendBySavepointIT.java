package io.millrace.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.testing.Await;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Switching state backends as a user does: a keyed job run by {@code millrace run} in a child JVM on one backend is
 * stopped with {@code millrace savepoint --stop}, then {@code millrace run -D state.backend=... --restore-from}
 * finishes it on the other backend; every key's running count is committed exactly once, as in one run.
 */
class SwitchBackendBySavepointIT {
    static final long EVENTS = 10_000;
    static final int KEYS = 7;
    /** Per key (the number mod KEYS), the running count: key * 1e9 + count; into an exactly-once file sink in args[0]. */
    private static final String COUNTING_JOB = """
            package job;

            import io.millrace.api.Pipeline;
            import io.millrace.api.time.WatermarkStrategy;
            import io.millrace.connector.file.TransactionalFileSink;
            import io.millrace.connector.generator.GeneratorSource;
            import java.nio.file.Path;

            public class CountingJob {
                public static void main(String[] args) throws Exception {
                    Pipeline p = Pipeline.create();
                    p.fromSource(GeneratorSource.builder(i -> (i %% %d) * 1_000_000_000L + 1).count(%d).ratePerSecond(1_000).build(),
                                    WatermarkStrategy.<Long>noWatermarks(), "numbers").uid("numbers")
                            .keyBy(n -> n / 1_000_000_000L).reduce((a, b) -> a + 1).uid("counts")
                            .sinkTo(TransactionalFileSink.jsonLines(Path.of(args[0]))).uid("files");
                    p.execute("counting-job");
                }
            }
            """.formatted(KEYS, EVENTS);

    @TempDir
    static Path build;

    static Path jar;

    @TempDir
    Path work;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private Process child;

    @BeforeAll
    static void buildJobJar() throws IOException {
        jar = TestJobJar.build(build, Map.of("job.CountingJob", COUNTING_JOB), "job.CountingJob");
    }

    @AfterEach
    void cleanUp() {
        if (child != null) {
            child.destroyForcibly();
        }
        System.getProperties().stringPropertyNames().stream().filter(n -> n.startsWith("millrace.")).forEach(System::clearProperty);
    }

    private int run(String... args) {
        return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private List<String> backend(String name) {
        return name.equals("rocksdb")
                ? List.of("-D", "state.backend=rocksdb", "-D", "state.rocksdb.directory=" + work.resolve("rocksdb"))
                : List.of("-D", "state.backend=heap");
    }

    private void switchBackends(String from, String to) throws Exception {
        Path checkpoints = work.resolve("ck");
        Path output = work.resolve("out");
        Path childLog = work.resolve("child.log");
        List<String> first = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "io.millrace.server.Main", "run", "--jar", jar.toString(),
                "--class", "job.CountingJob", "--checkpoint-dir", checkpoints.toString(), "--checkpoint-interval", "200ms"));
        first.addAll(backend(from));
        first.addAll(List.of("--", output.toString()));
        child = new ProcessBuilder(first).redirectErrorStream(true).redirectOutput(childLog.toFile()).start();
        Await.until("the child's first committed output", Duration.ofSeconds(30), () -> !committedLines(output).isEmpty());

        int exit = run("savepoint", "--checkpoint-dir", checkpoints.toString(), "--stop", "--timeout", "20s");

        assertThat(exit).as("exit code; stderr:%n%s", err).isZero();
        Path savepoint = Path.of(out.toString().strip());
        assertThat(child.waitFor(20, TimeUnit.SECONDS)).as("the child exited; its log:%n%s", TestJobJar.read(childLog)).isTrue();
        assertThat(child.exitValue()).as("the child's log:%n%s", TestJobJar.read(childLog)).isZero();
        assertThat(committedLines(output).size()).as("stopped part way").isBetween(1, (int) EVENTS - 1);

        List<String> second = new ArrayList<>(List.of("run", "--jar", jar.toString(), "--class", "job.CountingJob",
                "--checkpoint-dir", checkpoints.toString(), "--restore-from", savepoint.toString()));
        second.addAll(backend(to));
        second.addAll(List.of("--", output.toString()));
        int resumed = run(second.toArray(String[]::new));

        assertThat(resumed).as("exit code; stderr:%n%s", err).isZero();
        List<String> expected = new ArrayList<>();
        for (long key = 0; key < KEYS; key++) {
            for (long count = 1; count <= (EVENTS - key + KEYS - 1) / KEYS; count++) {
                expected.add(String.valueOf(key * 1_000_000_000L + count));
            }
        }
        assertThat(committedLines(output)).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void jobOnHeap_stoppedWithSavepoint_finishesOnRocksDbRestoredFromIt_withEveryCountOnce() throws Exception {
        switchBackends("heap", "rocksdb");
    }

    @Test
    void jobOnRocksDb_stoppedWithSavepoint_finishesOnHeapRestoredFromIt_withEveryCountOnce() throws Exception {
        switchBackends("rocksdb", "heap");
    }

    private static List<String> committedLines(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> !f.getFileName().toString().startsWith(".")).flatMap(f -> {
                try {
                    return Files.readAllLines(f).stream();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
