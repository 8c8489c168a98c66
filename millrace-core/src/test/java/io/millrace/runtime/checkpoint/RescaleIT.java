package io.millrace.runtime.checkpoint;

import static io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT.LINES;
import static io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT.readLines;
import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.metrics.CheckpointMetrics;
import io.millrace.api.metrics.OperatorMetrics;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.Windows;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rescaling through savepoints: a keyed job (running counts, event-time window counts, event-time timers)
 * runs at parallelism 2, stops with a savepoint mid-stream, resumes at 1, stops again, resumes at 3 and
 * runs to the end. Its committed output must equal that of an uninterrupted run, as a multiset.
 */
public class RescaleIT {
    static final long EVENTS = 30_000;
    static final int KEYS = ExactlyOnceRecoveryIT.KEYS;
    /**
     * Input rate of the runs that stop with a savepoint, events/s: the input lasts 6 s, so that two checkpoints and
     * the savepoint fit before its end on a loaded machine (or a slower backend); at 10,000/s they sometimes did not.
     */
    static final double PACED_RATE = 5_000;

    /** Emits "key,windowStart,count" for each 10 s window. */
    static final class KeyedWindowCount extends ProcessWindowFunction<Long, String, Long, TimeWindow> {
        @Override
        public void process(Long key, Context<TimeWindow> ctx, Iterable<Long> counts, Collector<String> out) {
            for (Long c : counts) {
                out.collect(key + "," + ctx.window().start() + "," + c);
            }
        }
    }

    /**
     * Counts the records of each key per second of event time and emits "key,secondEnd,count" from an
     * event-time timer at the end of that second: timers pending at a savepoint must fire after restore.
     */
    static final class SecondTimers extends KeyedProcessFunction<Long, Long, String> {
        private transient MapState<Long, Long> countBySecondEnd;

        @Override
        public void open(RuntimeContext context) {
            countBySecondEnd = context.state().getMapState(new MapStateDescriptor<>("count-by-second"));
        }

        @Override
        public void processElement(Long value, Context<Long> ctx, Collector<String> out) {
            long secondEnd = ctx.timestamp() / 1000 * 1000 + 999;
            Long c = countBySecondEnd.get(secondEnd);
            countBySecondEnd.put(secondEnd, c == null ? 1 : c + 1);
            ctx.timerService().registerEventTimeTimer(secondEnd);
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext<Long> ctx, Collector<String> out) {
            out.collect(ctx.currentKey() + "," + timestamp + "," + countBySecondEnd.get(timestamp));
            countBySecondEnd.remove(timestamp);
        }
    }

    @TempDir
    Path dir;

    /**
     * The state backend of this test's pipelines: adds its settings to {@code config}. Nothing here (the heap
     * backend); millrace-rocksdb runs this test again on RocksDB by overriding it.
     */
    protected PipelineConfig onBackend(PipelineConfig config) {
        return config;
    }

    @Test
    void whenRescaledFrom2To1To3ThroughSavepoints_thenTheCommittedOutputEqualsAnUninterruptedRun() throws Exception {
        Path reference = dir.resolve("reference");
        run(reference, 2, null, Double.POSITIVE_INFINITY);

        Path out = dir.resolve("rescaled");
        JobHandle first = start(out, 2, null, PACED_RATE);
        awaitProgress(first, 6_000);
        String savepoint1 = first.stopWithSavepoint().get(20, TimeUnit.SECONDS);
        assertThat(first.await().cancelled()).isTrue();
        long afterFirst = readLines(out.resolve("counts")).size();
        assertThat(afterFirst).as("running counts committed by the first savepoint").isBetween(1L, EVENTS - 1);

        JobHandle second = start(out, 1, Path.of(savepoint1), PACED_RATE);
        awaitProgress(second, 6_000);
        String savepoint2 = second.stopWithSavepoint().get(20, TimeUnit.SECONDS);
        second.await();
        long afterSecond = readLines(out.resolve("counts")).size();
        assertThat(afterSecond).as("running counts committed by the second savepoint").isBetween(afterFirst + 1, EVENTS - 1);
        assertThat(savepoint2).isNotEqualTo(savepoint1);

        JobResult last = start(out, 3, Path.of(savepoint2), Double.POSITIVE_INFINITY).await();
        assertThat(last.cancelled()).isFalse();

        List<String> counts = readLines(out.resolve("counts"));
        ExactlyOnceRecoveryIT.assertRunningCountsExact(counts, EVENTS);
        assertThat(counts).containsExactlyInAnyOrderElementsOf(readLines(reference.resolve("counts")));
        assertThat(readLines(out.resolve("windows"))).hasSize((int) (EVENTS / 1000 * KEYS))
                .containsExactlyInAnyOrderElementsOf(readLines(reference.resolve("windows")));
        assertThat(readLines(out.resolve("timers"))).hasSize((int) (EVENTS / 100 * KEYS))
                .containsExactlyInAnyOrderElementsOf(readLines(reference.resolve("timers")));
    }

    private void run(Path out, int parallelism, Path restoreFrom, double rate) throws Exception {
        start(out, parallelism, restoreFrom, rate).await();
    }

    private JobHandle start(Path out, int parallelism, Path restoreFrom, double rate) {
        PipelineConfig config = onBackend(new PipelineConfig().parallelism(parallelism));
        config.checkpoints().directory(out.resolve("job")).interval(Duration.ofMillis(100));
        if (restoreFrom != null) {
            config.checkpoints().restoreFrom(restoreFrom);
        }
        Pipeline p = Pipeline.create(config);
        GeneratorSource.Builder<Long> source = GeneratorSource.builder(i -> i).count(EVENTS).timestamps(i -> i * 10);
        if (!Double.isInfinite(rate)) {
            source.ratePerSecond(rate);
        }
        var numbers = p.fromSource(source.build(), WatermarkStrategy.<Long>monotonous(), "numbers").uid("numbers");
        numbers.keyBy(i -> i % KEYS).process(new ExactlyOnceRecoveryIT.RunningCount()).uid("running-count")
                .sinkTo(TransactionalFileSink.of(out.resolve("counts"), LINES)).uid("counts-sink");
        numbers.keyBy(i -> i % KEYS).window(Windows.tumbling(Duration.ofSeconds(10)))
                .aggregate(new ExactlyOnceRecoveryIT.Count(), new KeyedWindowCount()).uid("window-counts")
                .sinkTo(TransactionalFileSink.of(out.resolve("windows"), LINES)).uid("windows-sink");
        numbers.keyBy(i -> i % KEYS).process(new SecondTimers()).uid("second-timers")
                .sinkTo(TransactionalFileSink.of(out.resolve("timers"), LINES)).uid("timers-sink");
        return p.executeAsync("rescale");
    }

    /** Waits until the job has read some records and completed two periodic checkpoints since it started. */
    private static void awaitProgress(JobHandle job, long records) {
        Await.until(records + " records read", () -> job.metrics().sum("numbers", OperatorMetrics::recordsOut) >= records);
        Await.until("two checkpoints", () -> job.metrics().checkpoints().stream().filter(CheckpointMetrics::completed).count() >= 2);
    }
}
