package io.millrace.runtime.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.functions.ReduceFunction;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.WindowSpec;
import io.millrace.api.window.Windows;
import io.millrace.operator.OneInputOperator;
import io.millrace.testing.Emitted;
import io.millrace.testing.OneInputOperatorHarness;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SlicingWindowOperatorTest {
    private static final ReduceFunction<Ev> SUM = Ev::reduceSum;

    private static OneInputOperatorHarness<Object, Object> open(WindowSpec spec) throws Exception {
        @SuppressWarnings("unchecked")
        OneInputOperatorHarness<Object, Object> h = (OneInputOperatorHarness<Object, Object>) (OneInputOperatorHarness<?, ?>)
                OneInputOperatorHarness.of(() -> (OneInputOperator<Object, Object>) new WindowLowering().create(spec))
                        .keyedBy((Ev e) -> e.key()).maxParallelism(8).open();
        return h;
    }

    private static WindowSpec spec(TimeWindows w, long lateness, OutputTag<?> late, ReduceFunction<?> r,
            AggregateFunction<?, ?, ?> a, ProcessWindowFunction<?, ?, ?, ?> f) {
        return new WindowSpec(w, null, lateness, late, r, a, f);
    }

    @Test
    void tumblingReduce_emitsOneSumPerKeyAndWindow_atWindowMaxTimestamp() throws Exception {
        var h = open(spec(Windows.tumbling(Duration.ofMillis(10)), 0, null, SUM, null, null));
        h.processElement(new Ev("a", 1), 1);
        h.processElement(new Ev("a", 2), 5);
        h.processElement(new Ev("b", 7), 3);
        h.processElement(new Ev("a", 4), 12);
        h.processWatermark(9);
        assertThat(h.output()).containsExactlyInAnyOrder(new Emitted<>(new Ev("a", 3), 9), new Emitted<>(new Ev("b", 7), 9));
        assertThat(h.watermarks()).containsExactly(9L);
        h.clearOutput();
        h.endInput();
        assertThat(h.output()).containsExactly(new Emitted<>(new Ev("a", 4), 19));
        assertThat(h.backend().entryCount()).isZero();
        assertThat(h.numEventTimeTimers()).isZero();
    }

    @Test
    void slidingAggregate_underRandomDisorder_equalsBruteForcePerWindowSums() throws Exception {
        long[][] shapes = {{30, 10, 0}, {10, 4, 3}, {25, 25, 7}, {12, 8, -5}};
        for (long[] shape : shapes) {
            Random random = new Random(42 + shape[0]);
            TimeWindows windows = Windows.sliding(Duration.ofMillis(shape[0]), Duration.ofMillis(shape[1]), Duration.ofMillis(shape[2]));
            var h = open(spec(windows, 0, null, null, new Ev.SumCount(), new Ev.Recording<long[]>()));
            Map<String, long[]> expected = new TreeMap<>();
            long maxTs = 0;
            long bound = 15;
            for (int i = 0; i < 3000; i++) {
                long ts = Math.max(0, maxTs + random.nextInt(6) - random.nextInt((int) bound));
                if (ts <= maxTs - bound) {
                    ts = maxTs - bound + 1;
                }
                maxTs = Math.max(maxTs, ts);
                Ev e = new Ev("k" + random.nextInt(5), random.nextInt(100));
                h.processElement(e, ts);
                for (long start = ts - Math.floorMod(ts - windows.offset(), windows.slide()); start > ts - windows.size(); start -= windows.slide()) {
                    long[] acc = expected.computeIfAbsent(e.key() + "@" + (start + windows.size()), k -> new long[2]);
                    acc[0] += e.value();
                    acc[1]++;
                }
                if (i % 50 == 0) {
                    h.processWatermark(maxTs - bound);
                }
            }
            h.endInput();
            Map<String, long[]> actual = new TreeMap<>();
            for (Emitted<Object> out : h.output()) {
                Ev.Fired f = (Ev.Fired) out.value();
                TimeWindow w = (TimeWindow) f.window();
                assertThat(out.timestamp()).isEqualTo(w.maxTimestamp());
                assertThat(w.end() - w.start()).isEqualTo(windows.size());
                assertThat(f.firing()).isZero();
                assertThat(actual.put(f.key() + "@" + w.end(), (long[]) f.elements().get(0))).as("one firing per window").isNull();
            }
            assertThat(actual.keySet()).isEqualTo(expected.keySet());
            expected.forEach((k, v) -> assertThat(actual.get(k)).as(k).containsExactly(v));
            assertThat(h.metrics().lateRecordsDropped).isZero();
            assertThat(h.backend().entryCount()).isZero();
            assertThat(h.numEventTimeTimers()).isZero();
        }
    }

    @Test
    void lateRecordWithinAllowedLateness_refiresWindowWithNextFiringIndex_andStateIsRemovedAfterLateness() throws Exception {
        OutputTag<Ev> lateTag = new OutputTag<>("late");
        var h = open(spec(Windows.tumbling(Duration.ofMillis(10)), 5, lateTag, SUM, null, new Ev.Recording<Ev>()));
        h.processElement(new Ev("a", 1), 2);
        h.processWatermark(9);
        h.processElement(new Ev("a", 10), 3);
        h.processElement(new Ev("a", 100), 8);
        assertThat(h.extractOutputValues()).extracting(o -> ((Ev.Fired) o).firing()).containsExactly(0, 1, 2);
        assertThat(h.extractOutputValues()).extracting(o -> ((Ev.Fired) o).elements().get(0))
                .containsExactly(new Ev("a", 1), new Ev("a", 11), new Ev("a", 111));
        assertThat(h.output()).allSatisfy(e -> assertThat(e.timestamp()).isEqualTo(9));

        h.processWatermark(14);
        assertThat(h.backend().entryCount()).isZero();
        assertThat(h.numEventTimeTimers()).isZero();
        h.processElement(new Ev("a", 1000), 7);
        assertThat(h.output()).hasSize(3);
        assertThat(h.sideOutput(lateTag)).containsExactly(new Emitted<>(new Ev("a", 1000), 7));
        assertThat(h.metrics().lateRecordsDiverted).isEqualTo(1);
        assertThat(h.metrics().lateRecordsDropped).isZero();
    }

    @Test
    void recordLaterThanAllItsWindows_withoutSideOutput_isDroppedAndCounted() throws Exception {
        var h = open(spec(Windows.sliding(Duration.ofMillis(10), Duration.ofMillis(5)), 0, null, SUM, null, null));
        h.processElement(new Ev("a", 1), 12);
        h.processWatermark(14);
        h.processElement(new Ev("a", 2), 3);
        h.processElement(new Ev("a", 4), 13);
        assertThat(h.metrics().lateRecordsDropped).isEqualTo(1);
        h.endInput();
        assertThat(h.output()).containsExactly(
                new Emitted<>(new Ev("a", 1), 14), new Emitted<>(new Ev("a", 5), 19));
    }

    @Test
    void slidingProcessFunction_seesTheConcatenationOfItsSlicesInTimeOrder() throws Exception {
        var h = open(spec(Windows.sliding(Duration.ofMillis(20), Duration.ofMillis(10)), 0, null, null, null, new Ev.Recording<Ev>()));
        h.processElement(new Ev("a", 15), 15);
        h.processElement(new Ev("a", 5), 5);
        h.processElement(new Ev("a", 25), 25);
        h.endInput();
        assertThat(h.extractOutputValues()).containsExactly(
                new Ev.Fired("a", new TimeWindow(-10, 10), 0, List.of(new Ev("a", 5))),
                new Ev.Fired("a", new TimeWindow(0, 20), 0, List.of(new Ev("a", 5), new Ev("a", 15))),
                new Ev.Fired("a", new TimeWindow(10, 30), 0, List.of(new Ev("a", 15), new Ev("a", 25))),
                new Ev.Fired("a", new TimeWindow(20, 40), 0, List.of(new Ev("a", 25))));
        assertThat(h.backend().entryCount()).isZero();
    }

    @Test
    void sparseKey_skipsEmptyWindowsAndFiresOnlyWindowsWithContents() throws Exception {
        var h = open(spec(Windows.sliding(Duration.ofMillis(20), Duration.ofMillis(10)), 0, null, SUM, null, null));
        h.processElement(new Ev("a", 1), 5);
        h.processElement(new Ev("a", 2), 1005);
        h.processWatermark(2000);
        assertThat(h.output()).extracting(Emitted::timestamp).containsExactly(9L, 19L, 1009L, 1019L);
        assertThat(h.numEventTimeTimers()).isZero();
    }

    @Test
    void processingTimeTumbling_placesRecordsByClockAndFiresWhenTimeAdvances() throws Exception {
        var h = open(spec(Windows.tumbling(Duration.ofMillis(100)).inProcessingTime(), 0, null, SUM, null, null));
        h.setProcessingTime(10);
        h.processElement(new Ev("a", 1));
        h.setProcessingTime(50);
        h.processElement(new Ev("a", 2), 123_456);
        h.setProcessingTime(98);
        assertThat(h.output()).isEmpty();
        h.setProcessingTime(99);
        assertThat(h.output()).containsExactly(new Emitted<>(new Ev("a", 3), 99));
        h.processElement(new Ev("a", 4));
        assertThat(h.metrics().lateRecordsDropped).as("a processing-time record is never late").isZero();
        h.setProcessingTime(250);
        assertThat(h.output()).containsExactly(new Emitted<>(new Ev("a", 3), 99), new Emitted<>(new Ev("a", 4), 199));
        assertThat(h.backend().entryCount()).isZero();
        assertThat(h.numProcessingTimeTimers()).isZero();
    }

    @Test
    void processingTimeTumbling_onTheTimerDrivenOperator_firesEachWindowOnce_whenRestoredAfterEveryInput() throws Exception {
        WindowSpec spec = spec(Windows.tumbling(Duration.ofMillis(100)).inProcessingTime(), 0, null, SUM, null, null);
        @SuppressWarnings("unchecked")
        OneInputOperatorHarness<Object, Object> h = (OneInputOperatorHarness<Object, Object>) (OneInputOperatorHarness<?, ?>)
                OneInputOperatorHarness.of(() -> (OneInputOperator<Object, Object>) (OneInputOperator<?, ?>) new SlicingWindowOperator(spec))
                        .keyedBy((Ev e) -> e.key()).maxParallelism(8).open();
        h.setProcessingTime(10);
        h.processElement(new Ev("a", 1));
        h.setProcessingTime(50);
        h.processElement(new Ev("a", 2), 123_456);
        h.setProcessingTime(99);
        assertThat(h.output()).containsExactly(new Emitted<>(new Ev("a", 3), 99));
        h.processElement(new Ev("a", 4));
        h.setProcessingTime(250);
        assertThat(h.output()).containsExactly(new Emitted<>(new Ev("a", 3), 99), new Emitted<>(new Ev("a", 4), 199));
        assertThat(h.backend().entryCount()).isZero();
    }

    @Test
    void recordWithoutTimestamp_inEventTimeWindow_failsNamingOperatorAndRecord() throws Exception {
        var h = open(spec(Windows.tumbling(Duration.ofMillis(10)), 0, null, SUM, null, null));
        assertThatThrownBy(() -> h.processElement(new Ev("a", 1)))
                .hasMessageContaining("operator 'operator'")
                .hasMessageContaining("Ev[key=a, value=1]")
                .rootCause().hasMessageContaining("without an event timestamp");
    }
}
