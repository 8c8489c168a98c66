package io.millrace.runtime.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.Window;
import io.millrace.api.window.WindowSpec;
import io.millrace.api.window.Windows;
import io.millrace.operator.OneInputOperator;
import io.millrace.testing.Emitted;
import io.millrace.testing.OneInputOperatorHarness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Sliding windows over {@code Long} keys fired from the slice tables by their keys' ranges
 * ({@code SliceTableWindowOperator#fireByRanges}) against the same operator firing every window by a union of its
 * tables' keys: the same results in the same order, and the ranges used where keys grow with time (as ids handed
 * out in sequence do) but not where every slice holds the same keys.
 */
class SliceTableRangeFiringTest {
    private static final OutputTag<Ev> LATE = new OutputTag<>("late");

    /** Records key, window, firing and the window's contents of every firing, as one line. */
    static final class Lines<IN> extends ProcessWindowFunction<IN, String, Long, Window> {
        @Override
        public void process(Long key, Context<Window> ctx, Iterable<IN> elements, Collector<String> out) {
            StringBuilder s = new StringBuilder(key + " " + ctx.window() + " #" + ctx.firing());
            for (IN e : elements) {
                s.append(' ').append(e instanceof long[] a ? Arrays.toString(a) : String.valueOf(e));
            }
            out.collect(s.toString());
        }
    }

    private static WindowSpec spec(TimeWindows windows, boolean packed, long lateness) {
        return new WindowSpec(windows, null, lateness, LATE, null, packed ? new Ev.PackedSumCount() : new Ev.SumCount(), new Lines<long[]>());
    }

    private record Run(List<String> lines, long firedByRanges, long firedByUnion) {}

    /**
     * Feeds {@code n} records to a sliding-window operator keyed by the record's key as a number, with a watermark
     * every 50 records; {@code key} picks each record's key from its timestamp.
     */
    @SuppressWarnings("unchecked")
    private static Run run(boolean ranges, boolean packed, long lateness, long seed, int n, KeyOf key) throws Exception {
        TimeWindowOperator operator = new TimeWindowOperator(spec(Windows.sliding(Duration.ofMillis(100), Duration.ofMillis(20)), packed, lateness));
        OneInputOperatorHarness<Object, Object> h = OneInputOperatorHarness.of((OneInputOperator<Object, Object>) (OneInputOperator<?, ?>) operator)
                .keyedBy((Ev e) -> Long.parseLong(e.key())).maxParallelism(8).open();
        SliceTableWindowOperator slices = (SliceTableWindowOperator) operator.chosen();
        slices.rangeFiring(ranges);
        Random random = new Random(seed);
        long maxTs = 0;
        for (int i = 0; i < n; i++) {
            long ts = random.nextInt(20) == 0 ? maxTs - random.nextInt(40) : maxTs + random.nextInt(2);
            maxTs = Math.max(maxTs, ts);
            h.processElement(new Ev(Long.toString(key.of(ts, random)), random.nextInt(100)), Math.max(0, ts));
            if (i % 50 == 49) {
                h.processWatermark(maxTs - 10);
            }
        }
        h.endInput();
        List<String> lines = new ArrayList<>();
        for (Emitted<Object> e : h.output()) {
            lines.add(e.value() + " @" + e.timestamp());
        }
        return new Run(lines, slices.firedByRanges(), slices.firedByUnion());
    }

    interface KeyOf {
        long of(long timestamp, Random random);
    }

    @Test
    void keysGrowingWithTime_fireByRanges_withTheUnionsResultsInItsOrder() throws Exception {
        // ids grow with time; an id lives a few ms, so slices meet only at their boundaries (and through late records)
        KeyOf growing = (ts, random) -> ts * 4 + random.nextInt(16);
        for (boolean packed : new boolean[] {false, true}) {
            for (long seed = 1; seed <= 4; seed++) {
                Run union = run(false, packed, 0, seed, 6_000, growing);
                Run ranges = run(true, packed, 0, seed, 6_000, growing);
                assertThat(union.firedByRanges()).isZero();
                assertThat(ranges.firedByRanges()).as("packed %s, seed %d", packed, seed).isGreaterThan(3 * ranges.firedByUnion());
                assertThat(ranges.lines()).as("packed %s, seed %d", packed, seed).hasSizeGreaterThan(1_000)
                        .isEqualTo(union.lines());
            }
        }
    }

    @Test
    void lateRecordsWithinLateness_refireByRanges_asTheUnionDoes() throws Exception {
        KeyOf growing = (ts, random) -> ts * 2 + random.nextInt(40);
        Run union = run(false, true, 30, 7, 5_000, growing);
        Run ranges = run(true, true, 30, 7, 5_000, growing);
        assertThat(ranges.firedByRanges()).isPositive();
        assertThat(ranges.lines()).anyMatch(l -> l.contains(" #1 ")).isEqualTo(union.lines());
    }

    @Test
    void sameKeysInEverySlice_fireByTheUnion() throws Exception {
        KeyOf sensors = (ts, random) -> 1_000 + random.nextInt(40);
        Run union = run(false, true, 0, 3, 5_000, sensors);
        Run ranges = run(true, true, 0, 3, 5_000, sensors);
        // only where a key group's slices happen to hold disjoint keys (a window's first or last slices)
        assertThat(ranges.firedByUnion()).as("keys that every slice holds").isGreaterThan(20 * ranges.firedByRanges());
        assertThat(ranges.lines()).isEqualTo(union.lines());
    }
}
