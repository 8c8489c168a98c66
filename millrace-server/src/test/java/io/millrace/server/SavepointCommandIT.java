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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code millrace savepoint} against a job that {@code millrace run} runs in a child JVM: stop with a
 * savepoint, then {@code millrace run --restore-from} finishes the job with exactly-once output.
 */
class SavepointCommandIT {
    static final long EVENTS = 4_000;
    /** Generates EVENTS numbers at 1,000 a second into an exactly-once file sink in args[0]. */
    private static final String SLOW_JOB = """
            package job;

            import io.millrace.api.Pipeline;
            import io.millrace.api.time.WatermarkStrategy;
            import io.millrace.connector.file.TransactionalFileSink;
            import io.millrace.connector.generator.GeneratorSource;
            import java.nio.file.Path;
import java.time.Duration;

            public class SlowJob {
                public static void main(String[] args) throws Exception {
                    Pipeline p = Pipeline.create();
                    p.fromSource(GeneratorSource.builder(i -> i).count(%d).ratePerSecond(1_000).build(),
                                    WatermarkStrategy.<Long>noWatermarks(), "numbers").uid("numbers")
                            .sinkTo(TransactionalFileSink.jsonLines(Path.of(args[0]))).uid("files");
                    p.execute("slow-job");
                }
            }
            """.formatted(EVENTS);

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
        jar = TestJobJar.build(build, Map.of("job.SlowJob", SLOW_JOB), "job.SlowJob");
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

    @Test
    void stopWithSavepointFromTheCli_thenRunRestoredFromIt_givesEveryNumberExactlyOnce() throws Exception {
        Path checkpoints = work.resolve("ck");
        Path output = work.resolve("out");
        Path childLog = work.resolve("child.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "io.millrace.server.Main",
                "run", "--jar", jar.toString(), "--class", "job.SlowJob", "--checkpoint-dir", checkpoints.toString(),
                "--checkpoint-interval", "200ms", "--", output.toString())
                .redirectErrorStream(true).redirectOutput(childLog.toFile()).start();
        Await.until("the child's first committed output", Duration.ofSeconds(20), () -> !committedLines(output).isEmpty());

        int exit = run("savepoint", "--checkpoint-dir", checkpoints.toString(), "--stop", "--timeout", "20s");

        assertThat(exit).as("exit code; stderr:%n%s", err).isZero();
        Path savepoint = Path.of(out.toString().strip());
        assertThat(savepoint.resolve("_metadata")).exists();
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).as("the child exited; its log:%n%s", TestJobJar.read(childLog)).isTrue();
        assertThat(child.exitValue()).isZero();
        int linesAtStop = committedLines(output).size();
        assertThat(linesAtStop).as("stopped part way").isBetween(1, (int) EVENTS - 1);

        int resumed = run("run", "--jar", jar.toString(), "--class", "job.SlowJob", "--checkpoint-dir", checkpoints.toString(),
                "--restore-from", savepoint.toString(), "--", output.toString());

        assertThat(resumed).as("exit code; stderr:%n%s", err).isZero();
        assertThat(committedLines(output)).containsExactlyInAnyOrderElementsOf(
                Stream.iterate(0L, n -> n < EVENTS, n -> n + 1).map(String::valueOf).toList());
    }

    @Test
    void noJobRunning_exitsOneSayingNoJobAnswered_andLeavesNoRequestBehind() throws IOException {
        Path checkpoints = Files.createDirectories(work.resolve("idle"));

        int exit = run("savepoint", "--checkpoint-dir", checkpoints.toString(), "--timeout", "300ms");

        assertThat(exit).isEqualTo(1);
        assertThat(err.toString()).contains("no job with checkpoint directory " + checkpoints + " answered within 0.3s");
        assertThat(checkpoints.resolve("control")).isEmptyDirectory();
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void jobAnswersFailed_exitsOneWithTheJobsError() throws Exception {
        Path checkpoints = Files.createDirectories(work.resolve("failing"));
        Path control = checkpoints.resolve("control");
        Thread fakeJob = new Thread(() -> {
            try {
                Await.until("a request", Duration.ofSeconds(10), () -> Files.isDirectory(control) && requestIn(control) != null);
                Path request = requestIn(control);
                String response = request.getFileName().toString().replace(".request", ".response");
                Files.writeString(control.resolve(response + ".tmp"), "status: failed\nerror: checkpoint 7 abandoned: it did not complete within PT10M\n");
                Files.move(control.resolve(response + ".tmp"), control.resolve(response), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        fakeJob.start();

        int exit = run("savepoint", "--checkpoint-dir", checkpoints.toString(), "--timeout", "10s");
        fakeJob.join(10_000);

        assertThat(exit).isEqualTo(1);
        assertThat(err.toString()).contains("the job could not take the savepoint: checkpoint 7 abandoned: it did not complete within PT10M");
        assertThat(control).as("request and response withdrawn").isEmptyDirectory();
    }

    private static Path requestIn(Path control) {
        try (Stream<Path> files = Files.list(control)) {
            return files.filter(f -> f.getFileName().toString().matches("savepoint-.*\\.request")).findFirst().orElse(null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void missingCheckpointDirectory_exitsOneAtOnce() {
        Path missing = work.resolve("nope");
        assertThat(run("savepoint", "--checkpoint-dir", missing.toString(), "--stop")).isEqualTo(1);
        assertThat(err.toString()).contains(missing + " is not a directory: no job runs with it as its checkpoint directory");
        assertThat(missing).doesNotExist();
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
