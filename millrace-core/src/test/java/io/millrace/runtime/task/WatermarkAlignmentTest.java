package io.millrace.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.DataStream;
import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.metrics.JobMetrics;
import io.millrace.api.metrics.OperatorMetrics;
import io.millrace.api.metrics.TaskMetrics;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.Windows;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.testing.Await;
import io.millrace.testing.FeedSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Watermark alignment (docs/event-time.md): a source subtask whose watermark is more than the allowed drift ahead of
 * the lowest in its group stops reading until the others catch up; subtasks without a watermark yet, idle ones and
 * ended ones do not hold the group back; a waiting source still takes part in checkpoints; results are the same.
 */
class WatermarkAlignmentTest {
    private static final Duration DRIFT = Duration.ofMillis(100);
    @TempDir
    Path dir;
    private JobHandle job;
    private final FeedSource<Long> fast = new FeedSource<>();
    private final FeedSource<Long> slow = new FeedSource<>();
    private final CollectSink<Long> out = new CollectSink<>();

    @AfterEach
    void stop() throws InterruptedException {
        if (job != null && !job.isDone()) {
            job.cancel();
            job.await(Duration.ofSeconds(10));
        }
    }

    /** Two fed sources in one group ("fast" and "slow"), both monotonous, into one sink. */
    private JobHandle start(WatermarkStrategy<Long> slowStrategy) {
        PipelineConfig config = new PipelineConfig().parallelism(1).watermarkInterval(Duration.ZERO);
        config.checkpoints().directory(dir.resolve("checkpoints"));
        Pipeline p = Pipeline.create(config);
        DataStream<Long> a = p.fromSource(fast, WatermarkStrategy.<Long>monotonous().withWatermarkAlignment("feeds", DRIFT), "fast");
        DataStream<Long> b = p.fromSource(slow, slowStrategy, "slow");
        a.union(b).sinkTo(out);
        return p.executeAsync("aligned feeds");
    }

    /** Starts the job with the slow source at watermark -1 (one record at 0), then gives the fast one timestamps 0 to 999. */
    private void startBehindSlowAtZero(WatermarkStrategy<Long> slowStrategy) {
        slow.add(-1L, 0);
        job = start(slowStrategy);
        Await.until("the slow source's first watermark", () -> watermark(job, "slow") == -1);
        feedFast();
    }

    private void feedFast() {
        for (long t = 0; t < 1_000; t++) {
            fast.add(t, t);
        }
    }

    private static long watermark(JobHandle job, String operator) {
        return job.metrics().watermark(operator);
    }

    private static TaskMetrics task(JobMetrics metrics, String name) {
        return metrics.tasks().stream().filter(t -> t.task().startsWith(name)).findFirst().orElseThrow();
    }

    /** Waits until the fast source has spent {@code more} than now waiting for its group (time it did not read). */
    private void awaitAlignedFor(Duration more) {
        long until = task(job.metrics(), "fast").alignedNanos() + more.toNanos();
        Await.until("the fast source waiting " + more.toMillis() + " ms more for its group",
                () -> task(job.metrics(), "fast").alignedNanos() >= until);
    }

    @Test
    void whenASourceRunsAheadOfItsGroup_thenItWaitsWithinTheDrift_takesCheckpointsMeanwhile_andGoesOnAsTheOtherCatchesUpOrEnds() throws Exception {
        startBehindSlowAtZero(WatermarkStrategy.<Long>monotonous().withWatermarkAlignment("feeds", DRIFT));

        // monotonous: watermark = timestamp - 1; the fast one reads while its watermark is at most -1 + 100
        Await.until("the fast source reaching the drift", () -> watermark(job, "fast") == 100);
        long completed = job.triggerCheckpoint().get(20, TimeUnit.SECONDS);
        assertThat(completed).as("the id of a checkpoint that completed while the fast source waits").isPositive();
        awaitAlignedFor(Duration.ofMillis(200));
        assertThat(watermark(job, "fast")).as("held within the drift of the slow source's -1").isEqualTo(100);
        assertThat(task(job.metrics(), "fast").alignmentPauses()).isPositive();

        slow.add(-2L, 500);
        Await.until("the fast source following the slow one to 499 + 100", () -> watermark(job, "fast") == 600);
        awaitAlignedFor(Duration.ofMillis(100));
        assertThat(watermark(job, "fast")).as("held again, within the drift of 499").isEqualTo(600);

        slow.end();
        Await.until("the fast source reading on once the slow one ended", () -> watermark(job, "fast") == 998);
        fast.end();
        JobResult result = job.await(Duration.ofSeconds(20));
        assertThat(result).as("the job ended").isNotNull();
        List<Long> values = new ArrayList<>(out.results());
        values.sort(null);
        assertThat(values).hasSize(1_002);
        assertThat(values.subList(0, 2)).containsExactly(-2L, -1L);
        assertThat(values.get(1_001)).isEqualTo(999L);
        TaskMetrics fastTask = task(result.metrics(), "fast");
        assertThat(fastTask.alignedNanos()).as("time spent waiting for the group").isGreaterThan(TimeUnit.MILLISECONDS.toNanos(200));
    }

    @Test
    void whenTheOtherSourceTurnsIdle_thenItNoLongerHoldsTheGroupBack() throws Exception {
        startBehindSlowAtZero(WatermarkStrategy.<Long>monotonous().withIdleness(Duration.ofMillis(300)).withWatermarkAlignment("feeds", DRIFT));

        Await.until("the fast source reading everything once the slow one is idle", () -> watermark(job, "fast") == 998);
        assertThat(task(job.metrics(), "fast").alignmentPauses()).as("it had to wait before the slow one turned idle").isPositive();
        fast.end();
        slow.end();
        assertThat(job.await(Duration.ofSeconds(20))).isNotNull();
        assertThat(out.results()).hasSize(1_001);
    }

    @Test
    void whenTheOtherSourceHasNoWatermarkYet_thenItDoesNotHoldTheGroupBack() throws Exception {
        job = start(WatermarkStrategy.<Long>monotonous().withWatermarkAlignment("feeds", DRIFT));
        feedFast();

        Await.until("the fast source reading everything", () -> watermark(job, "fast") == 998);
        assertThat(task(job.metrics(), "fast").alignmentPauses()).isZero();
        fast.end();
        slow.end();
        assertThat(job.await(Duration.ofSeconds(20))).isNotNull();
        assertThat(out.results()).hasSize(1_000);
    }

    // ---- two subtasks of one source whose event time advances at different rates ----

    private static final long HALF = 100_000;
    private static final long TOTAL = 2 * HALF;
    private static final long GENERATOR_DRIFT_MS = 2_000;
    /** Subtask 0 reads [0, HALF): 1 ms of event time per record; subtask 1 reads [HALF, TOTAL): 2 ms per record. */
    private static long timestamp(long i) {
        return i < HALF ? i : (i - HALF) * 2;
    }

    /** What each subtask has read so far, and the largest gap in event time between them seen while both read. */
    static final class Progress {
        static final AtomicLong latest0 = new AtomicLong(Long.MIN_VALUE);
        static final AtomicLong latest1 = new AtomicLong(Long.MIN_VALUE);
        static final AtomicLong read0 = new AtomicLong();
        static final AtomicLong largestGap = new AtomicLong();

        static void reset() {
            latest0.set(Long.MIN_VALUE);
            latest1.set(Long.MIN_VALUE);
            read0.set(0);
            largestGap.set(0);
        }

        static long see(long i) {
            long t = timestamp(i);
            if (i < HALF) {
                latest0.set(t);
                read0.incrementAndGet();
            } else {
                latest1.set(t);
            }
            long t0 = latest0.get();
            long t1 = latest1.get();
            // both read (subtask 0 beyond its first polls, so that no poll of subtask 1 started before subtask 0 had a
            // watermark), and subtask 0 has not ended
            long n0 = read0.get();
            if (t0 != Long.MIN_VALUE && t1 != Long.MIN_VALUE && n0 >= 5_000 && n0 < HALF) {
                largestGap.accumulateAndGet(Math.abs(t1 - t0), Math::max);
            }
            return i;
        }
    }

    static final class CountPerWindow extends ProcessWindowFunction<Long, String, Long, TimeWindow> {
        @Override
        public void process(Long key, Context<TimeWindow> ctx, Iterable<Long> counts, Collector<String> out) {
            out.collect(key + "@" + ctx.window().start() + "=" + counts.iterator().next());
        }
    }

    private static JobResult runGenerator(boolean aligned, CollectSink<String> out) {
        Progress.reset();
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        WatermarkStrategy<Long> strategy = WatermarkStrategy.<Long>monotonous();
        if (aligned) {
            strategy = strategy.withWatermarkAlignment("readings", Duration.ofMillis(GENERATOR_DRIFT_MS));
        }
        p.fromSource(GeneratorSource.<Long>builder(i -> i).count(TOTAL).timestamps(WatermarkAlignmentTest::timestamp).ratePerSecond(200_000).build(),
                        strategy, "numbers")
                .map(Progress::see)
                .map(i -> 1L)
                .keyBy(one -> 0L)
                .window(Windows.tumbling(Duration.ofSeconds(10)))
                .reduce(Long::sum, new CountPerWindow())
                .sinkTo(out);
        return p.execute(aligned ? "aligned" : "free");
    }

    @Test
    void whenSubtasksAdvanceInEventTimeAtDifferentRates_thenAlignmentBoundsTheirDrift_andTheResultsAreTheSame() {
        CollectSink<String> freeOut = new CollectSink<>();
        runGenerator(false, freeOut);
        long freeGap = Progress.largestGap.get();
        CollectSink<String> alignedOut = new CollectSink<>();
        JobResult aligned = runGenerator(true, alignedOut);
        long alignedGap = Progress.largestGap.get();

        // subtask 1 polls only while its watermark (latest - 1) is at most the drift above subtask 0's published one (at
        // most subtask 0's latest - 1), and a poll reads at most 512 records, 1,024 ms of event time: so it is never more
        // than drift + 1,024 ahead; subtask 0 never more than drift + 512
        assertThat(alignedGap).as("largest event-time gap between the subtasks, aligned").isLessThanOrEqualTo(GENERATOR_DRIFT_MS + 1_024);
        assertThat(freeGap).as("largest event-time gap between the subtasks, free (the test's control)").isGreaterThan(10 * GENERATOR_DRIFT_MS);
        assertThat(aligned.metrics().tasks().stream().mapToLong(TaskMetrics::alignmentPauses).sum()).isPositive();
        assertThat(aligned.metrics().operators().stream().mapToLong(OperatorMetrics::lateRecordsDropped).sum()).isZero();
        assertThat(new TreeMap<>(counts(alignedOut))).isEqualTo(new TreeMap<>(counts(freeOut))).isEqualTo(expectedCounts());
    }

    private static java.util.Map<Long, Long> counts(CollectSink<String> out) {
        java.util.Map<Long, Long> perWindow = new TreeMap<>();
        for (String s : out.results()) {
            String[] parts = s.split("[@=]");
            perWindow.merge(Long.parseLong(parts[1]), Long.parseLong(parts[2]), Long::sum);
        }
        return perWindow;
    }

    private static java.util.Map<Long, Long> expectedCounts() {
        java.util.Map<Long, Long> perWindow = new TreeMap<>();
        for (long i = 0; i < TOTAL; i++) {
            perWindow.merge(timestamp(i) / 10_000 * 10_000, 1L, Long::sum);
        }
        return perWindow;
    }

    @Test
    void whenTheGroupIsBlankOrTheDriftNegative_orTheStrategyGoesMidPipeline_thenTheErrorSaysWhat() {
        assertThatThrownBy(() -> WatermarkStrategy.<Long>monotonous().withWatermarkAlignment(" ", DRIFT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("group must not be blank");
        assertThatThrownBy(() -> WatermarkStrategy.<Long>monotonous().withWatermarkAlignment("g", Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxAllowedDrift must not be negative");
        Pipeline p = Pipeline.create(new PipelineConfig());
        DataStream<Long> numbers = p.fromElements(1L, 2L);
        assertThatThrownBy(() -> numbers.assignTimestampsAndWatermarks(WatermarkStrategy.<Long>monotonous().withWatermarkAlignment("g", DRIFT)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("group 'g'").hasMessageContaining("fromSource");
    }
}
