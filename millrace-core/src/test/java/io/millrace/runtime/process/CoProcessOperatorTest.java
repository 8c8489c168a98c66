package io.millrace.runtime.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.functions.CoProcessFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.operator.KeyedTwoInput;
import io.millrace.operator.UserFunctionException;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.testing.Emitted;
import io.millrace.testing.TwoInputOperatorHarness;
import org.junit.jupiter.api.Test;

class CoProcessOperatorTest {

    /** Turns forwarding of a sensor's readings on or off. */
    record Control(String sensor, boolean enabled) {}

    record Reading(String sensor, int value) {}

    /** Forwards readings of enabled sensors; an enabling expires 100 ms (event time) after it arrived. */
    static final class Gate extends CoProcessFunction<Control, Reading, String> {
        private transient ValueState<Boolean> enabled;

        @Override
        public void open(RuntimeContext context) {
            enabled = context.state().getState(new ValueStateDescriptor<>("enabled"));
        }

        @Override
        public void processElement1(Control value, Context ctx, Collector<String> out) {
            enabled.update(value.enabled() ? Boolean.TRUE : null);
            if (value.enabled()) {
                ctx.timerService().registerEventTimeTimer(ctx.timestamp() + 100);
            }
        }

        @Override
        public void processElement2(Reading value, Context ctx, Collector<String> out) {
            if (enabled.value() != null) {
                out.collect(ctx.currentKey() + ":" + value.value());
            }
        }

        @Override
        public void onTimer(long timestamp, Context ctx, Collector<String> out) {
            if (enabled.value() != null) {
                enabled.clear();
                out.collect(ctx.currentKey() + " expired at wm " + ctx.currentWatermark());
            }
        }
    }

    @Test
    void keyed_controlStreamEnablesAndDisablesKeys() throws Exception {
        try (var h = TwoInputOperatorHarness.of(() -> new CoProcessOperator<>(new Gate()))
                .keyedBy((Control c) -> c.sensor(), (Reading r) -> r.sensor()).open()) {
            h.processElement2(new Reading("a", 1), 0);
            h.processElement1(new Control("a", true), 10);
            h.processElement2(new Reading("a", 2), 20);
            h.processElement2(new Reading("b", 3), 20);
            h.processElement1(new Control("b", true), 30);
            h.processElement1(new Control("a", false), 40);
            h.processElement2(new Reading("a", 4), 50);
            h.processElement2(new Reading("b", 5), 50);
            assertThat(h.output()).containsExactly(new Emitted<>("a:2", 20), new Emitted<>("b:5", 50));

            h.processWatermark1(500);
            assertThat(h.extractOutputValues()).hasSize(2);
            h.processWatermark2(130);
            assertThat(h.output()).endsWith(new Emitted<>("b expired at wm 130", 130));
            assertThat(h.watermarks()).containsExactly(130L);
            h.processElement2(new Reading("b", 6), 140);
            assertThat(h.extractOutputValues()).hasSize(3);
            assertThat(h.backend().entryCount()).isZero();
        }
    }

    @Test
    void recordsKeyedByTheExchange_shareStateAndTimersWithRecordsKeyedByTheOperator() throws Exception {
        try (var h = TwoInputOperatorHarness.of(new CoProcessOperator<>(new Gate()))
                .keyedBy((Control c) -> c.sensor(), (Reading r) -> r.sensor()).open()) {
            @SuppressWarnings("unchecked")
            KeyedTwoInput<Control, Reading> fromExchange = (KeyedTwoInput<Control, Reading>) h.operator();
            int group = KeyGroups.keyGroupFor("a", 128);
            fromExchange.processKeyedRecord1("a", group, new Control("a", true), 10);
            h.processElement2(new Reading("a", 2), 20);
            fromExchange.processKeyedRecord2("a", group, new Reading("a", 3), 30);
            fromExchange.processKeyedRecord2("b", KeyGroups.keyGroupFor("b", 128), new Reading("b", 4), 30);
            assertThat(h.extractOutputValues()).containsExactly("a:2", "a:3");

            h.processWatermark(200);
            assertThat(h.extractOutputValues()).endsWith("a expired at wm 200");
            assertThat(h.backend().entryCount()).isZero();
        }
    }

    /** Uses timers or state on whatever input it gets. */
    static final class UsesTimers extends CoProcessFunction<String, String, String> {
        @Override
        public void processElement1(String value, Context ctx, Collector<String> out) {
            ctx.timerService().registerEventTimeTimer(1);
            out.collect("1:" + value + " key " + ctx.currentKey());
        }

        @Override
        public void processElement2(String value, Context ctx, Collector<String> out) {
            ctx.timerService().registerEventTimeTimer(1);
        }
    }

    @Test
    void keyedWithBroadcastInput_timersOnTheBroadcastInputAreRefused() throws Exception {
        try (var h = TwoInputOperatorHarness.of(() -> new CoProcessOperator<>(new UsesTimers()))
                .name("gate").keyedBy((String s) -> s, null).open()) {
            h.processElement1("x", 0);
            assertThat(h.extractOutputValues()).containsExactly("1:x key x");
            assertThat(h.numEventTimeTimers()).isEqualTo(1);
            assertThatThrownBy(() -> h.processElement2("rule", 0))
                    .isInstanceOf(UserFunctionException.class)
                    .hasMessageContaining("'gate'")
                    .hasMessageContaining("rule")
                    .cause()
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("broadcast");
        }
    }

    /** Reads keyed state on the broadcast input. */
    static final class ReadsStateOnBroadcast extends CoProcessFunction<String, String, String> {
        private transient ValueState<String> last;

        @Override
        public void open(RuntimeContext context) {
            last = context.state().getState(new ValueStateDescriptor<>("last"));
        }

        @Override
        public void processElement1(String value, Context ctx, Collector<String> out) {
            last.update(value);
        }

        @Override
        public void processElement2(String value, Context ctx, Collector<String> out) {
            out.collect(last.value());
        }
    }

    @Test
    void keyedWithBroadcastInput_stateOnTheBroadcastInputIsRefused() throws Exception {
        try (var h = TwoInputOperatorHarness.of(() -> new CoProcessOperator<>(new ReadsStateOnBroadcast()))
                .keyedBy((String s) -> s, null).open()) {
            h.processElement1("x", 0);
            assertThatThrownBy(() -> h.processElement2("rule", 0))
                    .isInstanceOf(UserFunctionException.class)
                    .cause()
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'last'")
                    .hasMessageContaining("current key");
        }
    }

    /** Merges two streams, tagging each record with its input. */
    static final class Merge extends CoProcessFunction<String, Integer, String> {
        @Override
        public void processElement1(String value, Context ctx, Collector<String> out) {
            out.collect("s:" + value + " key " + ctx.currentKey());
        }

        @Override
        public void processElement2(Integer value, Context ctx, Collector<String> out) {
            out.collect("i:" + value);
        }
    }

    @Test
    void nonKeyed_processesBothInputs_andHasNoTimers() throws Exception {
        try (var h = TwoInputOperatorHarness.of(() -> new CoProcessOperator<>(new Merge())).name("merge").open()) {
            h.processElement1("a", 5);
            h.processElement2(7, 6);
            h.processWatermark(10);
            assertThat(h.output()).containsExactly(new Emitted<>("s:a key null", 5), new Emitted<>("i:7", 6));
            assertThat(h.watermarks()).containsExactly(10L);
            assertThat(h.backend()).isNull();
        }
        try (var h = TwoInputOperatorHarness.of(() -> new CoProcessOperator<>(new UsesTimers())).name("merge").open()) {
            assertThatThrownBy(() -> h.processElement1("a", 0))
                    .isInstanceOf(UserFunctionException.class)
                    .cause()
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("keyed connected streams");
        }
    }
}
