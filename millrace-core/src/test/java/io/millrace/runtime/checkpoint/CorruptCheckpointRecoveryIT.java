package io.millrace.runtime.checkpoint;

import static io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT.KEYS;
import static io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT.LINES;
import static io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT.readLines;
import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.metrics.CheckpointMetrics;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.testing.Await;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: a job is stopped after a few checkpoints, a state file of its newest checkpoint is damaged,
 * and the job started again resumes from the previous checkpoint, with a warning naming the file.
 */
class CorruptCheckpointRecoveryIT {
    static final long EVENTS = 20_000;

    @TempDir
    Path dir;

    private JobHandle start(double rate) {
        PipelineConfig config = new PipelineConfig().parallelism(2);
        config.checkpoints().directory(dir.resolve("job")).interval(Duration.ofMillis(50)).retained(3);
        Pipeline p = Pipeline.create(config);
        GeneratorSource.Builder<Long> source = GeneratorSource.builder(i -> i).count(EVENTS);
        if (!Double.isInfinite(rate)) {
            source.ratePerSecond(rate);
        }
        p.fromSource(source.build(), WatermarkStrategy.noWatermarks(), "numbers").uid("numbers")
                .keyBy(i -> i % KEYS).process(new ExactlyOnceRecoveryIT.RunningCount()).uid("running-count")
                .sinkTo(TransactionalFileSink.of(dir.resolve("counts"), LINES)).uid("counts-sink");
        return p.executeAsync("corrupt");
    }

    @Test
    void whenTheNewestCheckpointIsDamaged_thenTheJobResumesFromThePreviousOne() throws Exception {
        JobHandle first = start(5_000);
        Await.until("three checkpoints", () -> first.metrics().checkpoints().stream().filter(CheckpointMetrics::completed).count() >= 3);
        first.cancel();
        first.await();
        Path root = dir.resolve("job").resolve("checkpoints");
        long newest = completedIds(root).stream().mapToLong(Long::longValue).max().orElseThrow();
        long previous = completedIds(root).stream().mapToLong(Long::longValue).filter(id -> id < newest).max().orElseThrow();
        Path damaged = keyedStateFile(root.resolve("chk-" + newest));
        StateFileTest.flipByte(damaged, Files.size(damaged) / 2);
        // the sink already committed checkpoint <newest>; restoring an older one would write that output twice,
        // which the sink refuses: move it away, as its error message says
        moveAwayOutputOf(newest);

        String log = capturingStandardError(() -> start(Double.POSITIVE_INFINITY).await());

        String name = "chk-" + newest + "/" + damaged.getFileName();
        assertThat(log).contains("checkpoint " + newest + " is damaged (" + name)
                .contains("using checkpoint " + previous)
                .contains("resumes from checkpoint " + previous);
        ExactlyOnceRecoveryIT.assertRunningCountsExact(readLines(dir.resolve("counts")), EVENTS);
    }

    private void moveAwayOutputOf(long checkpointId) throws Exception {
        Path moved = Files.createDirectories(dir.resolve("moved-away"));
        try (Stream<Path> files = Files.list(dir.resolve("counts"))) {
            for (Path f : files.filter(f -> f.getFileName().toString().matches("part-\\d+-" + checkpointId + "-\\d+\\.txt")).toList()) {
                Files.move(f, moved.resolve(f.getFileName()));
            }
        }
    }

    private static List<Long> completedIds(Path root) throws Exception {
        try (Stream<Path> dirs = Files.list(root)) {
            return dirs.filter(d -> Files.exists(d.resolve("_metadata")))
                    .map(d -> Long.parseLong(d.getFileName().toString().substring("chk-".length()))).toList();
        }
    }

    private static Path keyedStateFile(Path checkpoint) throws Exception {
        try (Stream<Path> files = Files.list(checkpoint)) {
            return files.filter(f -> f.getFileName().toString().startsWith("running-count") && f.toString().endsWith(".keyed"))
                    .sorted().findFirst().orElseThrow();
        }
    }

    interface Action {
        void run() throws Exception;
    }

    /** Runs {@code action} while standard error (where the log goes) is also copied into the returned text. */
    static String capturingStandardError(Action action) throws Exception {
        PrintStream original = System.err;
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        PrintStream tee = new PrintStream(new java.io.OutputStream() {
            @Override
            public void write(int b) {
                original.write(b);
                copy.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                original.write(b, off, len);
                copy.write(b, off, len);
            }
        }, true, StandardCharsets.UTF_8);
        System.setErr(tee);
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        return copy.toString(StandardCharsets.UTF_8);
    }
}
