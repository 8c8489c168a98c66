package io.millrace.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import io.millrace.testing.Await;
import io.millrace.verify.BroadcastJob.Event;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Broadcast state across a savepoint and a change of parallelism: every rule of {@link BroadcastJob}'s input comes in
 * its first tenth, the first run stops with a savepoint after a third, and the second, at another parallelism, gets no
 * rule but those restored. Each of its subtasks must see all of them at its first reading, and what both runs
 * committed must equal an uninterrupted run's output and the batch model.
 */
public class BroadcastStateRescaleIT {
    private static final long SEED = 0x5CA1_E0B5L;
    private static final int EVENTS = 6_000;

    @TempDir
    Path dir;

    /**
     * The state backend of run {@code run} (0: before the savepoint, 1: after it) of case {@code caseIndex}: the heap
     * here; millrace-rocksdb overrides it to change the backend at the savepoint.
     */
    protected PipelineConfig onBackend(PipelineConfig config, int run, int caseIndex) {
        return config;
    }

    private Pipeline job(List<Event> events, int parallelism, Path restoreFrom, String name, Path out, CollectSink<String> probes,
            PipelineConfig config) {
        config.parallelism(parallelism).checkpoints().directory(dir.resolve("checkpoints-" + name)).interval(Duration.ofMillis(100));
        if (restoreFrom != null) {
            config.checkpoints().restoreFrom(restoreFrom);
        }
        Pipeline p = Pipeline.create(config);
        DataStream<Event> in = BroadcastJob.source(p, events, 2_000);
        DataStream<String> alarms = BroadcastJob.alarms(in, e -> e);
        alarms.sinkTo(TransactionalFileSink.of(out, ExactlyOnceRecoveryIT.LINES)).uid("sink");
        alarms.getSideOutput(BroadcastJob.PROBE).sinkTo(probes).uid("probes");
        return p;
    }

    @ParameterizedTest(name = "parallelism {0} to {1}")
    @CsvSource({"2, 3, 0", "3, 1, 1"})
    void savepointAtOneParallelism_restoredAtAnother_everySubtaskHasTheBroadcastState_andTheResultsEqualAnUninterruptedRun(
            int from, int to, int caseIndex) throws Exception {
        List<Event> events = BroadcastJob.generate(new Random(SEED + from), EVENTS, 24, 0.05, EVENTS / 10);
        long rules = events.stream().filter(e -> e.rule() && e.machine() >= 0).count();
        Path reference = dir.resolve("reference");
        job(events, from, null, "reference", reference, new CollectSink<>(), new PipelineConfig()).execute("reference");
        List<String> uninterrupted = ExactlyOnceRecoveryIT.readLines(reference);

        Path out = dir.resolve("out");
        BroadcastJob.READ.set(0);
        JobHandle first = job(events, from, null, "first", out, new CollectSink<>(), onBackend(new PipelineConfig(), 0, caseIndex))
                .executeAsync("first");
        Await.until("a third of the input read", Duration.ofSeconds(60), () -> BroadcastJob.READ.get() >= EVENTS / 3);
        Path savepoint = Path.of(first.stopWithSavepoint().get(30, TimeUnit.SECONDS));
        assertThat(BroadcastJob.READ.get()).as("the first run stopped before the end of the input").isLessThan(EVENTS);
        List<String> beforeRestore = ExactlyOnceRecoveryIT.readLines(out);
        CollectSink<String> probes = new CollectSink<>();
        job(events, to, savepoint, "second", out, probes, onBackend(new PipelineConfig(), 1, caseIndex)).execute("second");

        List<String> everySubtask = new ArrayList<>();
        for (int i = 0; i < to; i++) {
            everySubtask.add("subtask " + i + "/" + to + " sees " + rules + " limits");
        }
        assertThat(probes.results()).as("each subtask's broadcast state at its first reading after the restore")
                .containsExactlyInAnyOrderElementsOf(everySubtask);
        assertThat(beforeRestore).as("alarms committed by the first run").isNotEmpty();
        assertThat(uninterrupted).as("the uninterrupted run").containsExactlyInAnyOrderElementsOf(BroadcastJob.model(events));
        assertThat(ExactlyOnceRecoveryIT.readLines(out)).containsExactlyInAnyOrderElementsOf(uninterrupted);
    }
}
