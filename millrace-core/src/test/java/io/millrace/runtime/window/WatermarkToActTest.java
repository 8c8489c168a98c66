package io.millrace.runtime.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.sink.Sink;
import io.millrace.api.sink.SinkWriter;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.WindowSpec;
import io.millrace.api.window.Windows;
import io.millrace.runtime.operator.KeyedProcessOperator;
import io.millrace.runtime.operator.MapOperator;
import io.millrace.runtime.operator.OneInputOperator;
import io.millrace.runtime.operator.SinkOperator;
import io.millrace.testing.OneInputOperatorHarness;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What operators answer when their task asks for the lowest watermark that can make them do anything (a task
 * whose chain ends its job sleeps through lower ones): a window its next window end minus 1, and only the final
 * watermark once nothing is left; an operator that only passes watermarks on, and a sink whose writer ignores
 * them, only the final one; anything with timers or its own watermark handling, every watermark.
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
        assertThat(new KeyedProcessOperator<>(timers).watermarkToAct()).as("timers").isEqualTo(Long.MIN_VALUE);
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
