package io.millrace.runtime.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.functions.ReduceFunction;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.window.CountWindows;
import io.millrace.api.window.GlobalWindow;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.Trigger;
import io.millrace.api.window.TriggerResult;
import io.millrace.api.window.Triggers;
import io.millrace.api.window.Window;
import io.millrace.api.window.WindowAssigner;
import io.millrace.api.window.WindowSpec;
import io.millrace.api.window.Windows;
import io.millrace.operator.OneInputOperator;
import io.millrace.testing.Emitted;
import io.millrace.testing.OneInputOperatorHarness;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sessions, global and count windows, and time windows with non-default triggers. */
class TriggeredWindowOperatorsTest {
    private static final ReduceFunction<Ev> SUM = Ev::reduceSum;

    @SuppressWarnings("unchecked")
    private static OneInputOperatorHarness<Object, Object> open(WindowAssigner<?> assigner, Trigger<?, ?> trigger, long lateness,
            ReduceFunction<?> reducer, ProcessWindowFunction<?, ?, ?, ?> function) throws Exception {
        WindowSpec spec = new WindowSpec(assigner, trigger, lateness, null, reducer, null, function);
        return OneInputOperatorHarness.of(() -> (OneInputOperator<Object, Object>) new WindowLowering().create(spec))
                .keyedBy((Ev e) -> e.key()).open();
    }

    @Test
    void sessions_bridgingRecordMergesTwoSessionsIntoOne_andStateIsGoneAfterTheGap() throws Exception {
        var h = open(Windows.session(Duration.ofMillis(10)), null, 0, null, new Ev.Recording<Ev>());
        h.processElement(new Ev("a", 1), 0);
        h.processElement(new Ev("a", 2), 17);
        h.processElement(new Ev("b", 5), 3);
        assertThat(h.numEventTimeTimers()).as("one timer per session").isEqualTo(3);
        h.processElement(new Ev("a", 3), 9);
        assertThat(h.numEventTimeTimers()).as("the merged sessions' timers are gone").isEqualTo(2);
        h.processWatermark(26);
        assertThat(h.output()).containsExactly(
                new Emitted<>(new Ev.Fired("b", new TimeWindow(3, 13), 0, List.of(new Ev("b", 5))), 12),
                new Emitted<>(new Ev.Fired("a", new TimeWindow(0, 27), 0, List.of(new Ev("a", 1), new Ev("a", 2), new Ev("a", 3))), 26));
        assertThat(h.backend().entryCount()).isZero();
        assertThat(h.numEventTimeTimers()).isZero();
    }

    @Test
    void sessions_withLateness_lateRecordExtendsFiredSessionAndRefiresIt() throws Exception {
        var h = open(Windows.session(Duration.ofMillis(10)), null, 20, SUM, new Ev.Recording<Ev>());
        h.processElement(new Ev("a", 1), 0);
        h.processWatermark(10);
        h.processElement(new Ev("a", 2), 5);
        assertThat(h.output()).as("the merged session ends after the watermark: it waits").hasSize(1);
        h.processWatermark(14);
        assertThat(h.extractOutputValues()).containsExactly(
                new Ev.Fired("a", new TimeWindow(0, 10), 0, List.of(new Ev("a", 1))),
                new Ev.Fired("a", new TimeWindow(0, 15), 1, List.of(new Ev("a", 3))));
        h.endInput();
        assertThat(h.backend().entryCount()).isZero();
        assertThat(h.numEventTimeTimers()).isZero();
    }

    @Test
    void globalWindowWithPurgingCountTrigger_emitsEveryNRecordsAndKeepsNoContents() throws Exception {
        var h = open(Windows.global(), Triggers.purging(Triggers.count(3)), 0, SUM, null);
        for (int i = 1; i <= 7; i++) {
            h.processElement(new Ev("a", i));
        }
        assertThat(h.output()).containsExactly(new Emitted<>(new Ev("a", 6), GlobalWindow.INSTANCE.maxTimestamp()),
                new Emitted<>(new Ev("a", 15), Long.MAX_VALUE));
        h.endInput();
        assertThat(h.output()).hasSize(2);
    }

    @Test
    void continuousEventTimeTrigger_givesEarlyResultsThenTheFinalOne() throws Exception {
        var h = open(Windows.tumbling(Duration.ofMillis(100)), Triggers.continuousEventTime(Duration.ofMillis(30)), 0, SUM,
                new Ev.Recording<Ev>());
        h.processElement(new Ev("a", 1), 5);
        h.processWatermark(29);
        assertThat(h.output()).isEmpty();
        h.processWatermark(30);
        h.processElement(new Ev("a", 2), 40);
        h.processWatermark(60);
        h.processWatermark(99);
        assertThat(h.extractOutputValues()).extracting(o -> ((Ev.Fired) o).firing(), o -> ((Ev.Fired) o).elements().get(0))
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, new Ev("a", 1)), org.assertj.core.groups.Tuple.tuple(1, new Ev("a", 3)),
                        org.assertj.core.groups.Tuple.tuple(2, new Ev("a", 3)), org.assertj.core.groups.Tuple.tuple(3, new Ev("a", 3)));
        assertThat(h.backend().entryCount()).isZero();
        assertThat(h.numEventTimeTimers()).isZero();
    }

    @Test
    void continuousProcessingTimeTrigger_onProcessingTimeWindow_firesAtIntervals() throws Exception {
        var h = open(Windows.tumbling(Duration.ofMillis(100)).inProcessingTime(), Triggers.continuousProcessingTime(Duration.ofMillis(40)), 0,
                SUM, null);
        h.setProcessingTime(10);
        h.processElement(new Ev("a", 1));
        h.setProcessingTime(40);
        h.processElement(new Ev("a", 2));
        h.setProcessingTime(80);
        assertThat(h.extractOutputValues()).containsExactly(new Ev("a", 1), new Ev("a", 3));
        h.setProcessingTime(200);
        assertThat(h.backend().entryCount()).isZero();
        assertThat(h.numProcessingTimeTimers()).isZero();
    }

    @Test
    void countTriggerOnSlidingWindows_countsPerWindow_andCleansUpAtWindowEnd() throws Exception {
        var h = open(Windows.sliding(Duration.ofMillis(20), Duration.ofMillis(10)), Triggers.count(2), 0, SUM, new Ev.Recording<Ev>());
        h.processElement(new Ev("a", 1), 5);
        h.processElement(new Ev("a", 2), 12);
        h.processElement(new Ev("a", 4), 15);
        assertThat(h.extractOutputValues()).containsExactly(
                new Ev.Fired("a", new TimeWindow(0, 20), 0, List.of(new Ev("a", 3))),
                new Ev.Fired("a", new TimeWindow(10, 30), 0, List.of(new Ev("a", 6))));
        h.endInput();
        assertThat(h.output()).hasSize(2);
        assertThat(h.backend().entryCount()).isZero();
        assertThat(h.numEventTimeTimers()).isZero();
    }

    @Test
    void customTrigger_withPerWindowState_firesOnNewMaximumOnly() throws Exception {
        var h = open(Windows.tumbling(Duration.ofMillis(10)), new FireOnNewMaximum(), 0, SUM, null);
        h.processElement(new Ev("a", 5), 1);
        h.processElement(new Ev("a", 3), 2);
        h.processElement(new Ev("a", 7), 3);
        h.processElement(new Ev("a", 4), 12);
        assertThat(h.extractOutputValues()).containsExactly(new Ev("a", 5), new Ev("a", 15), new Ev("a", 4));
        h.processWatermark(100);
        assertThat(h.backend().entryCount()).isZero();
        assertThat(h.numEventTimeTimers()).isZero();
    }

    @Test
    void tumblingCountWindow_emitsPerNRecordsWithIncreasingFiringIndex() throws Exception {
        var h = open(CountWindows.of(3, 3), null, 0, SUM, new Ev.Recording<Ev>());
        for (int i = 1; i <= 7; i++) {
            h.processElement(new Ev("a", i));
            h.processElement(new Ev("b", 10 * i));
        }
        assertThat(h.extractOutputValues()).containsExactly(
                new Ev.Fired("a", GlobalWindow.INSTANCE, 0, List.of(new Ev("a", 6))),
                new Ev.Fired("b", GlobalWindow.INSTANCE, 0, List.of(new Ev("b", 60))),
                new Ev.Fired("a", GlobalWindow.INSTANCE, 1, List.of(new Ev("a", 15))),
                new Ev.Fired("b", GlobalWindow.INSTANCE, 1, List.of(new Ev("b", 150))));
    }

    @Test
    void slidingCountWindow_emitsEverySlideTheLastSizeRecords() throws Exception {
        var h = open(CountWindows.of(4, 2), null, 0, null, new Ev.Recording<Ev>());
        for (int i = 1; i <= 8; i++) {
            h.processElement(new Ev("a", i));
        }
        assertThat(h.extractOutputValues()).extracting(o -> ((Ev.Fired) o).elements().stream().map(e -> ((Ev) e).value()).toList())
                .containsExactly(List.of(1L, 2L), List.of(1L, 2L, 3L, 4L), List.of(3L, 4L, 5L, 6L), List.of(5L, 6L, 7L, 8L));
    }

    /** Fires whenever a record raises the window's maximum value; the maximum is per-window trigger state. */
    private static final class FireOnNewMaximum extends Trigger<Ev, Window> {
        private final ValueStateDescriptor<Long> max = new ValueStateDescriptor<>("max");

        @Override
        public TriggerResult onElement(Ev element, long timestamp, Window window, Context ctx) {
            ValueState<Long> state = ctx.getState(max);
            Long before = state.value();
            if (before == null || element.value() > before) {
                state.update(element.value());
                return TriggerResult.FIRE;
            }
            return TriggerResult.CONTINUE;
        }

        @Override
        public TriggerResult onEventTime(long time, Window window, Context ctx) {
            return TriggerResult.CONTINUE;
        }

        @Override
        public TriggerResult onProcessingTime(long time, Window window, Context ctx) {
            return TriggerResult.CONTINUE;
        }

        @Override
        public void clear(Window window, Context ctx) {
            ctx.getState(max).clear();
        }
    }
}
