package io.millrace.runtime.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.CoProcessFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.ReduceFunction;
import io.millrace.api.sink.Sink;
import io.millrace.api.sink.SinkWriter;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.WindowSpec;
import io.millrace.api.window.Windows;
import io.millrace.operator.OneInputOperator;
import io.millrace.runtime.process.CoProcessOperator;
import io.millrace.runtime.process.KeyedProcessOperator;
import io.millrace.runtime.operator.MapOperator;
import io.millrace.runtime.operator.SinkOperator;
import io.millrace.testing.OneInputOperatorHarness;
import io.millrace.testing.TwoInputOperatorHarness;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What operators answer when their task asks for the lowest watermark that can make them do anything (a task
 * whose chain ends its job sleeps through lower ones): a window its next window end minus 1, and only the final
 * watermark once nothing is left; keyed process functions and windows fired by timers their earliest event-time
 * timer; an operator that only passes watermarks on, and a sink whose writer ignores them, only the final one;
 * anything with its own watermark handling, and any operator before it opens, every watermark.
 */
class WatermarkToActTest {
    private static final OutputTag<Ev> LATE = new OutputTag<>("late");

    @SuppressWarnings("unchecked")
    private static OneInputOperatorHarness<Object, Object> window(TimeWindows windows) throws Exception {
        WindowSpec spec = new WindowSpec(windows, null, 0, LATE, null, new Ev.PackedSumCount(), new Ev.Recording<long[]>());
        return OneInputOperatorHarness.of((OneInputOperator<Object, Object>) (OneInputOperator<?, ?>) new TimeWindowOperator(spec))
                .keyedBy((Ev e) -> e.key()).maxParallelism(8).open();
    }

    @Test
    void tumblingWindows_answerTheNextWindowEndMinusOne_andOnlyTheEndOnceNothingIsLeft() throws Exception {
        var h = window(Windows.tumbling(Duration.ofMillis(100)));
        assertThat(h.operator().watermarkToAct()).as("no slices").isEqualTo(Long.MAX_VALUE);
        h.processElement(new Ev("a", 1), 10);
        h.processElement(new Ev("b", 1), 150);
        assertThat(h.operator().watermarkToAct()).isEqualTo(99);
        h.processWatermark(98);
        assertThat(h.output()).isEmpty();
        assertThat(h.operator().watermarkToAct()).isEqualTo(99);
        h.processWatermark(99);
        assertThat(h.output()).hasSize(1);
        assertThat(h.operator().watermarkToAct()).isEqualTo(199);
        h.processWatermark(250);
        assertThat(h.output()).hasSize(2);
        assertThat(h.operator().watermarkToAct()).as("all fired").isEqualTo(Long.MAX_VALUE);
        h.processElement(new Ev("a", 1), 260);
        assertThat(h.operator().watermarkToAct()).isEqualTo(299);
    }

    @Test
    void slidingWindows_answerTheEndOfTheFirstWindowNotFired() throws Exception {
        var h = window(Windows.sliding(Duration.ofMillis(100), Duration.ofMillis(20)));
        h.processElement(new Ev("a", 1), 30);
        assertThat(h.operator().watermarkToAct()).as("[-60, 40) is the first window holding 30").isEqualTo(39);
        h.processWatermark(45);
        assertThat(h.output()).hasSize(1);
        assertThat(h.operator().watermarkToAct()).isEqualTo(59);
        h.processWatermark(139);
        assertThat(h.output()).hasSize(5);
        assertThat(h.operator().watermarkToAct()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void operatorsThatPassWatermarksOn_sinksThatIgnoreThem_andTheRest() {
        assertThat(new MapOperator<String, String>(s -> s).watermarkToAct()).isEqualTo(Long.MAX_VALUE);
        KeyedProcessFunction<String, String, String> timers = new KeyedProcessFunction<>() {
            @Override
            public void processElement(String value, Context<String> ctx, Collector<String> out) {}
        };
        assertThat(new KeyedProcessOperator<>(timers).watermarkToAct()).as("before opening").isEqualTo(Long.MIN_VALUE);
    }

    /** Keyed by the value's first letter: an alarm 100 ms after each record, called off by a record "<key>-".*/
    static final class Alarms extends KeyedProcessFunction<String, String, String> {
        @Override
        public void processElement(String value, Context<String> ctx, Collector<String> out) {
            if (value.endsWith("-")) {
                ctx.timerService().deleteEventTimeTimer(ctx.timestamp() + 100);
            } else {
                ctx.timerService().registerEventTimeTimer(ctx.timestamp() + 100);
            }
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext<String> ctx, Collector<String> out) {
            out.collect(ctx.currentKey() + "@" + timestamp);
        }
    }

    @Test
    void aKeyedProcessFunction_answersItsEarliestEventTimeTimer() throws Exception {
        var h = OneInputOperatorHarness.of(new KeyedProcessOperator<>(new Alarms())).keyedBy((String s) -> s.substring(0, 1)).open();
        assertThat(h.operator().watermarkToAct()).as("no timers").isEqualTo(Long.MAX_VALUE);
        h.processElement("a", 50);
        h.processElement("b", 20);
        h.processElement("c", 90);
        assertThat(h.operator().watermarkToAct()).isEqualTo(120);
        h.processWatermark(119);
        assertThat(h.extractOutputValues()).isEmpty();
        h.processWatermark(120);
        assertThat(h.extractOutputValues()).containsExactly("b@120");
        assertThat(h.operator().watermarkToAct()).isEqualTo(150);
        h.processElement("a-", 50);
        assertThat(h.operator().watermarkToAct()).as("a's timer deleted").isEqualTo(190);
        h.processWatermark(500);
        assertThat(h.extractOutputValues()).containsExactly("b@120", "c@190");
        assertThat(h.operator().watermarkToAct()).as("all fired").isEqualTo(Long.MAX_VALUE);
    }

    /** Input 1 arms a timer 100 ms on, input 2 only reads. */
    static final class Armed extends CoProcessFunction<String, String, String> {
        @Override
        public void processElement1(String value, Context ctx, Collector<String> out) {
            ctx.timerService().registerEventTimeTimer(ctx.timestamp() + 100);
        }

        @Override
        public void processElement2(String value, Context ctx, Collector<String> out) {
            out.collect(value);
        }

        @Override
        public void onTimer(long timestamp, Context ctx, Collector<String> out) {
            out.collect("fired@" + timestamp);
        }
    }

    @Test
    void aCoProcessFunction_keyedAnswersItsEarliestTimer_unkeyedOnlyTheFinalWatermark() throws Exception {
        var keyed = TwoInputOperatorHarness.of(new CoProcessOperator<>(new Armed())).keyedBy((String s) -> s, (String s) -> s).open();
        assertThat(keyed.operator().watermarkToAct()).isEqualTo(Long.MAX_VALUE);
        keyed.processElement1("x", 30);
        keyed.processElement1("y", 10);
        assertThat(keyed.operator().watermarkToAct()).isEqualTo(110);
        keyed.processWatermark(110);
        assertThat(keyed.extractOutputValues()).containsExactly("fired@110");
        assertThat(keyed.operator().watermarkToAct()).isEqualTo(130);

        assertThat(new CoProcessOperator<>(new Armed()).watermarkToAct()).as("before opening").isEqualTo(Long.MIN_VALUE);
        var unkeyed = TwoInputOperatorHarness.of(new CoProcessOperator<>(new Armed())).open();
        unkeyed.processElement2("z", 5);
        assertThat(unkeyed.operator().watermarkToAct()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void sessionWindows_answerTheirEarliestSessionEnd() throws Exception {
        WindowSpec spec = new WindowSpec(Windows.session(Duration.ofMillis(10)), null, 0, null, (ReduceFunction<Ev>) Ev::reduceSum, null, new Ev.Recording<Ev>());
        @SuppressWarnings("unchecked")
        var h = OneInputOperatorHarness.of(() -> (OneInputOperator<Object, Object>) new WindowLowering().create(spec))
                .keyedBy((Ev e) -> e.key()).open();
        assertThat(h.operator().watermarkToAct()).isEqualTo(Long.MAX_VALUE);
        h.processElement(new Ev("a", 1), 0);
        h.processElement(new Ev("b", 1), 30);
        assertThat(h.operator().watermarkToAct()).as("a's session [0, 10) fires at 9").isEqualTo(9);
        h.processElement(new Ev("a", 1), 5);
        assertThat(h.operator().watermarkToAct()).as("extended to [0, 15)").isEqualTo(14);
        h.processWatermark(13);
        assertThat(h.output()).isEmpty();
        h.processWatermark(14);
        assertThat(h.output()).hasSize(1);
        assertThat(h.operator().watermarkToAct()).isEqualTo(39);
    }

    static final class Quiet implements SinkWriter<String> {
        @Override
        public void write(String value, long timestamp) {}

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {}
    }

    static final class Rolling implements SinkWriter<String> {
        long watermark;

        @Override
        public void write(String value, long timestamp) {}

        @Override
        public void onWatermark(long watermark) {
            this.watermark = watermark;
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {}
    }

    @Test
    void aSinkAnswersEveryWatermark_onlyWhenItsWriterHandlesThem() throws Exception {
        Sink<String> quiet = context -> new Quiet();
        Sink<String> rolling = context -> new Rolling();
        var a = OneInputOperatorHarness.of(new SinkOperator<>(quiet)).open();
        var b = OneInputOperatorHarness.of(new SinkOperator<>(rolling)).open();
        assertThat(a.operator().watermarkToAct()).isEqualTo(Long.MAX_VALUE);
        assertThat(b.operator().watermarkToAct()).isEqualTo(Long.MIN_VALUE);
    }
}
