package io.millrace.runtime.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.OutputTag;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.WindowSpec;
import io.millrace.api.window.Windows;
import io.millrace.operator.OneInputOperator;
import io.millrace.testing.Emitted;
import io.millrace.testing.OneInputOperatorHarness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The slice-major heap layout ({@link SliceTableWindowOperator}) against the timer-driven
 * {@link SlicingWindowOperator} on the same seeded random input: the same results, firing indices and late
 * records, with nothing left in state or timers at the end. Both are checkpointed and restored into a fresh
 * operator after every input.
 */
class SliceTableWindowOperatorTest {
    private static final OutputTag<Ev> LATE = new OutputTag<>("late");

    private static WindowSpec spec(TimeWindows windows, long lateness) {
        return new WindowSpec(windows, null, lateness, LATE, null, new Ev.SumCount(), new Ev.Recording<long[]>());
    }

    /** {@link #spec} whose accumulators are {@linkplain io.millrace.api.functions.PackedAccumulator packed}. */
    private static WindowSpec packedSpec(TimeWindows windows, long lateness) {
        return new WindowSpec(windows, null, lateness, LATE, null, new Ev.PackedSumCount(), new Ev.Recording<long[]>());
    }

    /** A harness that checkpoints the operator and restores a fresh one after every input. */
    @SuppressWarnings("unchecked")
    private static OneInputOperatorHarness<Object, Object> open(Supplier<OneInputOperator<?, ?>> operator) throws Exception {
        return OneInputOperatorHarness.of(() -> (OneInputOperator<Object, Object>) operator.get()).keyedBy((Ev e) -> e.key())
                .maxParallelism(8).open();
    }

    /** A harness without the checkpoint and restore after every input (for inputs of thousands of keys). */
    @SuppressWarnings("unchecked")
    private static OneInputOperatorHarness<Object, Object> openOnce(OneInputOperator<?, ?> operator) throws Exception {
        return OneInputOperatorHarness.of((OneInputOperator<Object, Object>) operator).keyedBy((Ev e) -> e.key())
                .maxParallelism(8).open();
    }

    /** Records with timestamps drifting forward, some far behind the watermark; a watermark every {@code every} records. */
    private static void feed(OneInputOperatorHarness<Object, Object> h, long seed, int n, int keys, int every) throws Exception {
        Random random = new Random(seed);
        long maxTs = 0;
        for (int i = 0; i < n; i++) {
            long ts = random.nextInt(10) == 0 ? maxTs - random.nextInt(60) : maxTs + random.nextInt(4);
            maxTs = Math.max(maxTs, ts);
            h.processElement(new Ev("k" + random.nextInt(keys), random.nextInt(100)), ts);
            if (i % every == every - 1) {
                h.processWatermark(maxTs - 5);
            }
        }
        h.endInput();
    }

    private static List<String> describe(OneInputOperatorHarness<Object, Object> h) {
        List<String> all = new ArrayList<>();
        for (Emitted<Object> e : h.output()) {
            Ev.Fired f = (Ev.Fired) e.value();
            long[] acc = (long[]) f.elements().get(0);
            all.add(f.key() + " " + f.window() + " #" + f.firing() + " " + acc[0] + "/" + acc[1] + " @" + e.timestamp());
        }
        all.sort(null);
        return all;
    }

    @Test
    void withAllowedLateness_lateRecordsRefireTheirWindowsWithTheSameFiringIndicesAsTheTimerDrivenOperator() throws Exception {
        TimeWindows[] shapes = {Windows.sliding(Duration.ofMillis(30), Duration.ofMillis(10)),
            Windows.tumbling(Duration.ofMillis(20)), Windows.sliding(Duration.ofMillis(24), Duration.ofMillis(9), Duration.ofMillis(4))};
        for (int s = 0; s < shapes.length; s++) {
            TimeWindows shape = shapes[s];
            var fast = open(() -> new TimeWindowOperator(spec(shape, 25)));
            var timers = open(() -> new SlicingWindowOperator(spec(shape, 25)));
            feed(fast, 7 + s, 3_000, 8, 40);
            feed(timers, 7 + s, 3_000, 8, 40);

            assertThat(((TimeWindowOperator) fast.operator()).chosen()).isInstanceOf(SliceTableWindowOperator.class);
            List<String> expected = describe(timers);
            assertThat(expected).as("some windows fire again").anyMatch(line -> line.contains(" #2 "));
            assertThat(describe(fast)).as("shape %s", s).isEqualTo(expected);
            assertThat(fast.sideOutput(LATE)).isEqualTo(timers.sideOutput(LATE)).isNotEmpty();
            assertThat(fast.metrics().lateRecordsDiverted).isEqualTo(timers.metrics().lateRecordsDiverted);
            assertThat(fast.backend().entryCount()).isZero();
            assertThat(fast.numEventTimeTimers()).isZero();
        }
    }

    /**
     * Packed accumulators: the same results as object accumulators on the timer-driven operator, through late
     * refirings, windows of one and of several slices, and a checkpoint and restore after every input.
     */
    @Test
    void packedAccumulators_giveTheResultsOfObjectAccumulators_acrossLatenessAndRestores() throws Exception {
        TimeWindows[] shapes = {Windows.sliding(Duration.ofMillis(30), Duration.ofMillis(10)), Windows.tumbling(Duration.ofMillis(20))};
        for (int s = 0; s < shapes.length; s++) {
            TimeWindows shape = shapes[s];
            var packed = open(() -> new TimeWindowOperator(packedSpec(shape, 25)));
            var timers = open(() -> new SlicingWindowOperator(spec(shape, 25)));
            feed(packed, 31 + s, 3_000, 8, 40);
            feed(timers, 31 + s, 3_000, 8, 40);

            SliceTableWindowOperator chosen = (SliceTableWindowOperator) ((TimeWindowOperator) packed.operator()).chosen();
            assertThat(chosen.packsAccumulators()).isTrue();
            List<String> expected = describe(timers);
            assertThat(expected).as("some windows fire again").anyMatch(line -> line.contains(" #2 "));
            assertThat(describe(packed)).as("shape %s", s).isEqualTo(expected);
            assertThat(packed.sideOutput(LATE)).isEqualTo(timers.sideOutput(LATE));
            assertThat(packed.backend().entryCount()).isZero();
        }
    }

    /** A result that is the packed accumulator itself stays as it was when fired, in windows of one and of several slices. */
    @Test
    void packedAccumulatorsReturnedAsResults_areNotChangedByLaterFirings() throws Exception {
        for (TimeWindows shape : new TimeWindows[] {Windows.sliding(Duration.ofMillis(30), Duration.ofMillis(10)),
            Windows.tumbling(Duration.ofMillis(20))}) {
            var itself = openOnce(new TimeWindowOperator(
                    new WindowSpec(shape, null, 0, LATE, null, new Ev.SumItself(), new Ev.Recording<Ev.Sum>())));
            var timers = openOnce(new SlicingWindowOperator(spec(shape, 0)));
            feed(itself, 41, 2_000, 30, 25);
            feed(timers, 41, 2_000, 30, 25);
            List<String> expected = new ArrayList<>();
            for (String line : describe(timers)) {
                expected.add(line.substring(0, line.indexOf(" #")) + " " + line.substring(line.indexOf(" #") + 4));
            }
            List<String> seen = new ArrayList<>();
            for (Emitted<Object> e : itself.output()) {
                Ev.Fired f = (Ev.Fired) e.value();
                seen.add(f.key() + " " + f.window() + " " + ((Ev.Sum) f.elements().get(0)).sum + "/"
                        + ((Ev.Sum) f.elements().get(0)).count + " @" + e.timestamp());
            }
            seen.sort(null);
            assertThat(seen).isNotEmpty().isEqualTo(expected);
        }
    }

    @Test
    void manyKeysFiringInOneWatermarkStep_fireEachWindowOnceForEveryKey_inWindowEndOrder() throws Exception {
        TimeWindows windows = Windows.sliding(Duration.ofMillis(60), Duration.ofMillis(5));
        var fast = open(() -> new TimeWindowOperator(spec(windows, 0)));
        var timers = open(() -> new SlicingWindowOperator(spec(windows, 0)));
        Random random = new Random(11);
        for (int i = 0; i < 1_200; i++) {
            Ev e = new Ev("k" + random.nextInt(300), random.nextInt(100));
            long ts = random.nextInt(100);
            fast.processElement(e, ts);
            timers.processElement(e, ts);
        }
        assertThat(fast.output()).isEmpty();
        long entriesBefore = fast.backend().entryCount();
        fast.processWatermark(80);
        timers.processWatermark(80);

        List<Long> ends = new ArrayList<>();
        for (Emitted<Object> e : fast.output()) {
            ends.add(((TimeWindow) ((Ev.Fired) e.value()).window()).end());
        }
        assertThat(ends).isSorted().contains(5L, 80L).doesNotContain(85L);
        assertThat(describe(fast)).hasSize(timers.output().size()).isEqualTo(describe(timers));
        assertThat(fast.backend().entryCount()).as("slices no unfired window needs are gone").isPositive()
                .isLessThan(entriesBefore);
        fast.endInput();
        timers.endInput();
        assertThat(describe(fast)).isEqualTo(describe(timers));
        assertThat(fast.backend().entryCount()).isZero();
    }

    /**
     * A tumbling window fires from one table per key group and reads each batch of keys ahead ({@link ReadAhead}):
     * thousands of keys, group sizes not multiples of the batch, every key fired once with its own contents.
     */
    @Test
    void thousandsOfKeysInOneTumblingWindow_fireOnceEach_acrossReadAheadBatches() throws Exception {
        TimeWindows windows = Windows.tumbling(Duration.ofMillis(100));
        var fast = openOnce(new TimeWindowOperator(spec(windows, 0)));
        var timers = openOnce(new SlicingWindowOperator(spec(windows, 0)));
        Random random = new Random(23);
        int keys = 2_003;
        for (int i = 0; i < 10_000; i++) {
            Ev e = new Ev("k" + (i < keys ? i : random.nextInt(keys)), random.nextInt(100));
            long ts = random.nextInt(100);
            fast.processElement(e, ts);
            timers.processElement(e, ts);
        }
        fast.processWatermark(99);
        timers.processWatermark(99);

        assertThat(((TimeWindowOperator) fast.operator()).chosen()).isInstanceOf(SliceTableWindowOperator.class);
        List<String> fired = describe(fast);
        assertThat(fired).hasSize(keys);
        assertThat(fired.stream().map(line -> line.substring(0, line.indexOf(' '))).distinct()).hasSize(keys);
        assertThat(fired).isEqualTo(describe(timers));
    }
}
