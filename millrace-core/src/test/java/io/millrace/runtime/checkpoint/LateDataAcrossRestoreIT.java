package io.millrace.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobResult;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.RestartStrategy;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.MapFunction;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.Windows;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Late data and restarts: a record that was late before a failure is late after the restore too. The job
 * restores its watermarks with its state, so a record replayed after a restart is judged against the
 * watermark the job had at the checkpoint, not against a watermark that starts again from nothing (which
 * would let it re-open a window that was already emitted and committed). One source subtask, so that which
 * records are late does not depend on how two sources' records and watermarks interleave.
 */
class LateDataAcrossRestoreIT {
    static final long EVENTS = 40_000;
    static final int KEYS = 5;
    /** Records (indexes) that still have to throw once. */
    static final Set<Long> FAIL_AT = ConcurrentHashMap.newKeySet();
    static final OutputTag<Long> LATE = new OutputTag<>("late");

    /**
     * From record 12,000 on, every 25th record is 100 s (10,000 records) behind the others, far behind any
     * watermark the job can have then (the bound is 1 s; watermarks trail the records by at most a few batches):
     * late in every run, unless a restart forgot the watermark. Which records are late thus does not depend on
     * how the input was cut into batches.
     */
    static long timestamp(long i) {
        return i >= 12_000 && i % 25 == 24 ? i * 10 - 100_000 : i * 10;
    }

    /** Throws once at each index of {@link #FAIL_AT}. */
    static final class FailAt implements MapFunction<Long, Long> {
        @Override
        public Long map(Long value) {
            if (FAIL_AT.remove(value)) {
                throw new IllegalStateException("injected failure at " + value);
            }
            return value;
        }
    }

    /** "key@windowStart=count". */
    static final class Label extends ProcessWindowFunction<Long, String, Long, TimeWindow> {
        @Override
        public void process(Long key, Context<TimeWindow> ctx, Iterable<Long> counts, Collector<String> out) {
            out.collect(key + "@" + ctx.window().start() + "=" + counts.iterator().next());
        }
    }

    private JobResult run(Path out, Set<Long> failures) throws Exception {
        FAIL_AT.clear();
        FAIL_AT.addAll(failures);
        PipelineConfig config = new PipelineConfig().parallelism(2).restartStrategy(RestartStrategy.fixedDelay(10, Duration.ZERO));
        config.checkpoints().directory(out.resolve("checkpoints")).interval(Duration.ofMillis(30));
        Pipeline p = Pipeline.create(config);
        var numbers = p.fromSource(
                GeneratorSource.builder(i -> i).count(EVENTS).ratePerSecond(50_000).timestamps(LateDataAcrossRestoreIT::timestamp).build(),
                WatermarkStrategy.<Long>boundedOutOfOrderness(Duration.ofSeconds(1)), "numbers").uid("numbers").parallelism(1);
        var windows = numbers.map(new FailAt()).uid("fail-at").parallelism(1)
                .keyBy(i -> i % KEYS)
                .window(Windows.tumbling(Duration.ofSeconds(2)))
                .sideOutputLateData(LATE)
                .aggregate(new ExactlyOnceRecoveryIT.Count(), new Label())
                .uid("window-counts");
        windows.sinkTo(TransactionalFileSink.of(out.resolve("windows"), ExactlyOnceRecoveryIT.LINES)).uid("windows-sink");
        windows.getSideOutput(LATE).map(String::valueOf).uid("late-text")
                .sinkTo(TransactionalFileSink.of(out.resolve("late"), ExactlyOnceRecoveryIT.LINES)).uid("late-sink");
        return p.execute("late-data");
    }

    @TempDir
    Path dir;

    @Test
    void whenTheJobRestartsSeveralTimes_thenWindowResultsAndLateRecordsEqualAnUninterruptedRun() throws Exception {
        run(dir.resolve("reference"), Set.of());
        List<String> expectedWindows = sorted(ExactlyOnceRecoveryIT.readLines(dir.resolve("reference/windows")));
        List<String> expectedLate = sorted(ExactlyOnceRecoveryIT.readLines(dir.resolve("reference/late")));
        assertThat(expectedLate).as("late records in the uninterrupted run").isNotEmpty();

        JobResult result = run(dir.resolve("restarted"), Set.of(13_013L, 19_517L, 26_003L, 31_111L, 36_071L));

        assertThat(result.metrics().restarts()).isEqualTo(5);
        assertThat(difference(expectedWindows, ExactlyOnceRecoveryIT.readLines(dir.resolve("restarted/windows"))))
                .as("window results that differ from the uninterrupted run").isEmpty();
        assertThat(difference(expectedLate, ExactlyOnceRecoveryIT.readLines(dir.resolve("restarted/late"))))
                .as("late records that differ from the uninterrupted run").isEmpty();
    }

    private static List<String> sorted(List<String> lines) {
        return lines.stream().sorted().toList();
    }

    /** Lines missing from {@code actual} ("missing ...") or there too often ("extra ..."), sorted. */
    static List<String> difference(List<String> expected, List<String> actual) {
        java.util.Map<String, Integer> count = new java.util.TreeMap<>();
        expected.forEach(line -> count.merge(line, 1, Integer::sum));
        actual.forEach(line -> count.merge(line, -1, Integer::sum));
        List<String> differences = new java.util.ArrayList<>();
        count.forEach((line, n) -> {
            if (n != 0) {
                differences.add((n > 0 ? "missing " : "extra ") + line + (Math.abs(n) > 1 ? " x" + Math.abs(n) : ""));
            }
        });
        return differences;
    }
}
