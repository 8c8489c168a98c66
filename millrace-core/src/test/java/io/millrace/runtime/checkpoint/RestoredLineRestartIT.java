package io.millrace.runtime.checkpoint;

import static io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT.KEYS;
import static io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT.LINES;
import static io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT.readLines;
import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.RestartStrategy;
import io.millrace.api.metrics.CheckpointMetrics;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job started from a savepoint that later fails restarts from the newest checkpoint taken since the
 * savepoint, not from the savepoint, and its committed output stays exact.
 */
class RestoredLineRestartIT {
    static final long EVENTS = 20_000;

    @TempDir
    Path dir;

    private Pipeline pipeline(PipelineConfig config, long failAt) {
        config.checkpoints().directory(dir.resolve("job")).interval(Duration.ofMillis(50));
        Pipeline p = Pipeline.create(config);
        var numbers = p.fromSource(GeneratorSource.builder(i -> i).count(EVENTS).ratePerSecond(10_000).build(),
                WatermarkStrategy.<Long>noWatermarks(), "numbers").uid("numbers");
        var checked = failAt < 0 ? numbers : numbers.map(new ExactlyOnceRecoveryIT.FailOnce(failAt)).name("fail-once");
        checked.keyBy(i -> i % KEYS).process(new ExactlyOnceRecoveryIT.RunningCount()).uid("running-count")
                .sinkTo(TransactionalFileSink.of(dir.resolve("counts"), LINES)).uid("counts-sink");
        return p;
    }

    @Test
    void whenARestoredJobFails_thenItRestartsFromTheNewestCheckpointOfItsLine() throws Exception {
        JobHandle first = pipeline(new PipelineConfig().parallelism(2), -1).executeAsync("line");
        Await.until("two checkpoints", () -> first.metrics().checkpoints().stream().filter(CheckpointMetrics::completed).count() >= 2);
        String savepoint = first.stopWithSavepoint().get(20, TimeUnit.SECONDS);
        long savepointId = first.metrics().lastCompletedCheckpoint();

        ExactlyOnceRecoveryIT.FAILURES_LEFT.set(1);
        PipelineConfig config = new PipelineConfig().parallelism(2).restartStrategy(RestartStrategy.fixedDelay(2, Duration.ZERO));
        config.checkpoints().restoreFrom(Path.of(savepoint));
        JobResult[] result = new JobResult[1];
        String log = CorruptCheckpointRecoveryIT.capturingStandardError(
                () -> result[0] = pipeline(config, EVENTS - 2_000).execute("line"));

        assertThat(result[0].metrics().restarts()).isEqualTo(1);
        assertThat(log).contains("resumes from savepoint " + savepointId + " at " + savepoint)
                .containsPattern("resumes from checkpoint \\d+ \\(taken after restoring " + java.util.regex.Pattern.quote(savepoint) + "\\)");
        assertThat(log).as("checkpoint ids are not reused after the restart").doesNotContainPattern("writing checkpoint \\d+ failed");
        ExactlyOnceRecoveryIT.assertRunningCountsExact(readLines(dir.resolve("counts")), EVENTS);
    }
}
