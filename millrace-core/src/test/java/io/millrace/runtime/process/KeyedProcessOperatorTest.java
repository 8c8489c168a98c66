package io.millrace.runtime.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.TimeDomain;
import io.millrace.operator.UserFunctionException;
import io.millrace.testing.Emitted;
import io.millrace.testing.OneInputOperatorHarness;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyedProcessOperatorTest {

    /** A reading of a sensor. */
    record Reading(String sensor, double value) {}

    static final OutputTag<String> HIGH = new OutputTag<>("high");

    /**
     * Counts readings per sensor; 10 ms after a reading (event time) emits "sensor=count" once per
     * timestamp, and sends readings above 100 to the side output.
     */
    static final class CountWithTimeout extends KeyedProcessFunction<String, Reading, String> {
        private transient ValueState<Long> count;

        @Override
        public void open(RuntimeContext context) {
            count = context.state().getState(new ValueStateDescriptor<>("count"));
        }

        @Override
        public void processElement(Reading value, Context<String> ctx, Collector<String> out) {
            Long c = count.value();
            count.update(c == null ? 1L : c + 1);
            ctx.timerService().registerEventTimeTimer(ctx.timestamp() + 10);
            if (value.value() > 100) {
                ctx.output(HIGH, ctx.currentKey() + ":" + value.value());
            }
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext<String> ctx, Collector<String> out) {
            out.collect(ctx.currentKey() + "=" + count.value() + " " + ctx.timeDomain());
        }
    }

    private static OneInputOperatorHarness<Reading, String> harness(KeyedProcessFunction<String, Reading, String> fn) throws Exception {
        return OneInputOperatorHarness.of(() -> new KeyedProcessOperator<>(fn)).name("counter").keyedBy((Reading r) -> r.sensor()).open();
    }

    @Test
    void perKeyCounterWithEventTimeTimer_emitsCountsAtTheTimersTimestamp() throws Exception {
        try (var h = harness(new CountWithTimeout())) {
            h.processElement(new Reading("a", 1), 100);
            h.processElement(new Reading("a", 2), 100);
            h.processElement(new Reading("b", 3), 105);
            h.processElement(new Reading("a", 200), 120);
            assertThat(h.numEventTimeTimers()).isEqualTo(3);

            h.processWatermark(115);
            assertThat(h.output()).containsExactly(
                    new Emitted<>("a=3 EVENT_TIME", 110), new Emitted<>("b=1 EVENT_TIME", 115));
            assertThat(h.watermarks()).containsExactly(115L);

            h.endInput();
            assertThat(h.extractOutputValues()).endsWith("a=3 EVENT_TIME");
            assertThat(h.output().get(2).timestamp()).isEqualTo(130);
            assertThat(h.sideOutputValues(HIGH)).containsExactly("a:200.0");
            assertThat(h.sideOutput(HIGH).get(0).timestamp()).isEqualTo(120);
            assertThat(h.numEventTimeTimers()).isZero();
        }
    }

    /** Emits each record with its timestamp and, at a processing-time timer, the key. */
    static final class EchoWithProcessingTimer extends KeyedProcessFunction<String, Reading, String> {
        @Override
        public void processElement(Reading value, Context<String> ctx, Collector<String> out) {
            out.collect("in " + value.sensor() + " @" + ctx.timestamp());
            ctx.timerService().registerProcessingTimeTimer(ctx.timerService().currentProcessingTime() + 50);
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext<String> ctx, Collector<String> out) {
            assertThat(ctx.timeDomain()).isEqualTo(TimeDomain.PROCESSING_TIME);
            out.collect("timer " + ctx.currentKey());
        }
    }

    @Test
    void processingTimeTimers_fireWhenTheClockReachesThem() throws Exception {
        try (var h = harness(new EchoWithProcessingTimer())) {
            h.setProcessingTime(1_000);
            h.processElement(new Reading("a", 1), 7);
            h.setProcessingTime(1_020);
            h.processElement(new Reading("b", 1), 8);
            h.setProcessingTime(1_049);
            assertThat(h.extractOutputValues()).containsExactly("in a @7", "in b @8");
            h.setProcessingTime(1_050);
            assertThat(h.output()).endsWith(new Emitted<>("timer a", 1_050));
            h.setProcessingTime(2_000);
            assertThat(h.extractOutputValues()).containsExactly("in a @7", "in b @8", "timer a", "timer b");
            assertThat(h.numProcessingTimeTimers()).isZero();
        }
    }

    /** Fails on a record whose value is negative. */
    static final class FailOnNegative extends KeyedProcessFunction<String, Reading, String> {
        @Override
        public void processElement(Reading value, Context<String> ctx, Collector<String> out) {
            if (value.value() < 0) {
                throw new IllegalArgumentException("negative reading");
            }
            out.collect(value.sensor());
        }
    }

    @Test
    void userFunctionFailure_namesTheOperatorSubtaskAndRecord() throws Exception {
        try (var h = harness(new FailOnNegative())) {
            assertThatThrownBy(() -> h.processElement(new Reading("s-7", -1), 0))
                    .isInstanceOf(UserFunctionException.class)
                    .hasMessageContaining("operator 'counter' (subtask 1/1)")
                    .hasMessageContaining("Reading[sensor=s-7, value=-1.0]")
                    .hasMessageContaining("negative reading")
                    .hasCauseInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void longRecords_areTruncatedInTheFailureMessage() throws Exception {
        try (var h = harness(new FailOnNegative())) {
            String longName = "x".repeat(5_000);
            assertThatThrownBy(() -> h.processElement(new Reading(longName, -1), 0))
                    .isInstanceOf(UserFunctionException.class)
                    .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(600))
                    .hasMessageContaining("xxx…");
        }
    }

    /** Throws a failure that a chained downstream operator already wrapped. */
    static final class RethrowsDownstreamFailure extends KeyedProcessFunction<String, Reading, String> {
        static final RuntimeException DOWNSTREAM = UserFunctionException.of(
                new io.millrace.testing.NamedContext("sink", 3), "rec", new IllegalStateException("boom"));

        @Override
        public void processElement(Reading value, Context<String> ctx, Collector<String> out) {
            throw DOWNSTREAM;
        }
    }

    @Test
    void failureOfAChainedDownstreamOperator_isRethrownUnchanged() throws Exception {
        try (var h = harness(new RethrowsDownstreamFailure())) {
            assertThatThrownBy(() -> h.processElement(new Reading("a", 1), 0))
                    .isSameAs(RethrowsDownstreamFailure.DOWNSTREAM)
                    .hasMessageContaining("operator 'sink' (subtask 4/4)");
        }
    }

    /** Records what the runtime context says. */
    static final class RecordsRuntimeContext extends KeyedProcessFunction<String, Reading, String> {
        final List<String> seen = new ArrayList<>();
        boolean closed;

        @Override
        public void open(RuntimeContext context) {
            seen.add(context.operatorName() + " " + context.subtaskIndex() + "/" + context.parallelism() + " max " + context.maxParallelism());
        }

        @Override
        public void processElement(Reading value, Context<String> ctx, Collector<String> out) {}

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void openAndClose_reachTheFunctionWithTheSubtasksRuntimeContext() throws Exception {
        RecordsRuntimeContext fn = new RecordsRuntimeContext();
        var h = OneInputOperatorHarness.of(new KeyedProcessOperator<>(fn))
                .name("ctx").subtask(1, 4).maxParallelism(64).keyedBy((Reading r) -> r.sensor()).open();
        h.close();
        assertThat(fn.seen).containsExactly("ctx 1/4 max 64");
        assertThat(fn.closed).isTrue();
        assertThat(h.backend().keyGroupRange().start()).isEqualTo(16);
    }
}
