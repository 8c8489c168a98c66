package io.millrace.runtime.broadcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.BroadcastProcessFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedBroadcastProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.state.BroadcastState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.testing.HarnessSetup;
import io.millrace.testing.TwoInputOperatorHarness;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The broadcast operators in the two-input harness, which checkpoints them and restores a fresh instance after every
 * input: broadcast state written by the broadcast side, read by the keyed side, kept across restores; writes from the
 * keyed side, null keys and unknown descriptors refused with messages that say why; keyed state visited from the
 * broadcast side; timers of the keyed side. millrace-rocksdb runs it again with the keyed state in RocksDB.
 */
public class KeyedBroadcastProcessOperatorTest {
    static final MapStateDescriptor<String, Integer> LIMITS = new MapStateDescriptor<>("limits");
    static final OutputTag<Rule> REJECTED = new OutputTag<>("rejected");

    /** The limit of every machine of a type; a limit of -1 removes the type's limit. */
    record Rule(String type, int limit) {}

    record Reading(String machine, String type, int value) {}

    /** Counts readings per machine; raises an alarm for a reading over its type's limit; "reset" rules clear the counts. */
    static final class Alarms extends KeyedBroadcastProcessFunction<String, Reading, Rule, String> {
        static final ValueStateDescriptor<Integer> COUNT = new ValueStateDescriptor<>("count");
        private transient ValueState<Integer> count;

        @Override
        public void open(RuntimeContext context) {
            count = context.state().getState(COUNT);
        }

        @Override
        public void processElement(Reading r, ReadOnlyContext<String> ctx, Collector<String> out) throws Exception {
            Integer n = count.value();
            count.update(n == null ? 1 : n + 1);
            Integer limit = ctx.getBroadcastState(LIMITS).get(r.type());
            if (limit != null && r.value() > limit) {
                out.collect(ctx.currentKey() + " " + r.value() + ">" + limit);
            }
        }

        @Override
        public void processBroadcastElement(Rule rule, Context<String> ctx, Collector<String> out) throws Exception {
            if (rule.type() == null) {
                ctx.output(REJECTED, rule);
            } else if (rule.type().equals("reset")) {
                List<String> visited = new ArrayList<>();
                ctx.applyToKeyedState(COUNT, (machine, state) -> {
                    visited.add(machine + "=" + state.value());
                    state.clear();
                });
                visited.sort(null);
                out.collect("reset " + visited);
            } else if (rule.limit() < 0) {
                ctx.getBroadcastState(LIMITS).remove(rule.type());
            } else {
                ctx.getBroadcastState(LIMITS).put(rule.type(), rule.limit());
            }
        }
    }

    /** The keyed state backend of the harnesses: the heap here; millrace-rocksdb overrides it. */
    protected <H> HarnessSetup<H> onBackend(HarnessSetup<H> setup) {
        return setup;
    }

    private TwoInputOperatorHarness<Reading, Rule, String> keyed(Supplier<KeyedBroadcastProcessFunction<String, Reading, Rule, String>> f)
            throws Exception {
        return onBackend(TwoInputOperatorHarness.<Reading, Rule, String>of(() -> new KeyedBroadcastProcessOperator<>(f.get(), List.of(LIMITS)))
                .name("alarms").keyedBy((Reading r) -> r.machine())).open();
    }

    @Test
    void rulesFromTheBroadcastSide_areReadByTheKeyedSide_acrossARestoreAfterEveryInput() throws Exception {
        try (var h = keyed(Alarms::new)) {
            h.processElement1(new Reading("m1", "lathe", 90), 1);
            h.processElement2(new Rule("lathe", 80), 2);
            h.processElement2(new Rule("mill", 50), 3);
            h.processElement1(new Reading("m1", "lathe", 90), 4);
            h.processElement1(new Reading("m2", "lathe", 70), 5);
            h.processElement1(new Reading("m3", "mill", 60), 6);
            h.processElement2(new Rule("lathe", 95), 7);
            h.processElement2(new Rule("mill", -1), 8);
            h.processElement1(new Reading("m1", "lathe", 90), 9);
            h.processElement1(new Reading("m3", "mill", 60), 10);
            h.processElement1(new Reading("m1", "lathe", 96), 11);

            assertThat(h.extractOutputValues()).containsExactly("m1 90>80", "m3 60>50", "m1 96>95");
            assertThat(h.output().get(2).timestamp()).isEqualTo(11);
            assertThat(h.restores()).as("restored from a checkpoint after every input").isGreaterThanOrEqualTo(11);
        }
    }

    @Test
    void applyToKeyedState_visitsEveryKeyWithAValueOnce_andMayClearIt() throws Exception {
        try (var h = keyed(Alarms::new)) {
            for (String m : List.of("m1", "m2", "m1", "m3", "m1", "m2")) {
                h.processElement1(new Reading(m, "lathe", 0), 1);
            }
            h.processElement2(new Rule("reset", 0), 2);
            h.processElement1(new Reading("m2", "lathe", 0), 3);
            h.processElement2(new Rule("reset", 0), 4);
            h.processElement2(new Rule("reset", 0), 5);

            assertThat(h.extractOutputValues()).containsExactly("reset [m1=3, m2=2, m3=1]", "reset [m2=1]", "reset []");
        }
    }

    /** Tries to change the broadcast state from the keyed side, through a cast, an iterator and an entry. */
    static final class WritesFromTheKeyedSide extends KeyedBroadcastProcessFunction<String, Reading, Rule, String> {
        private final String how;

        WritesFromTheKeyedSide(String how) {
            this.how = how;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void processElement(Reading r, ReadOnlyContext<String> ctx, Collector<String> out) {
            var limits = ctx.getBroadcastState(LIMITS);
            switch (how) {
                case "cast" -> ((BroadcastState<String, Integer>) limits).put(r.type(), r.value());
                case "iterator" -> {
                    var it = limits.immutableEntries().iterator();
                    it.next();
                    it.remove();
                }
                default -> limits.immutableEntries().iterator().next().setValue(r.value());
            }
        }

        @Override
        public void processBroadcastElement(Rule rule, Context<String> ctx, Collector<String> out) {
            ctx.getBroadcastState(LIMITS).put(rule.type(), rule.limit());
        }
    }

    @Test
    void aWriteFromTheKeyedSide_failsSayingTheStateIsReadOnlyThere() throws Exception {
        try (var h = keyed(() -> new WritesFromTheKeyedSide("cast"))) {
            assertThatThrownBy(() -> h.processElement1(new Reading("m1", "lathe", 1), 1))
                    .hasMessageContaining("operator 'alarms'")
                    .rootCause().isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("broadcast state 'limits' of operator 'alarms' is read-only on the data side")
                    .hasMessageContaining("only processBroadcastElement may change it");
        }
        for (String how : List.of("iterator", "entry")) {
            try (var h = keyed(() -> new WritesFromTheKeyedSide(how))) {
                h.processElement2(new Rule("lathe", 80), 1);
                assertThatThrownBy(() -> h.processElement1(new Reading("m1", "lathe", 1), 2)).as(how)
                        .rootCause().isInstanceOf(UnsupportedOperationException.class);
                h.processElement2(new Rule("mill", 70), 3);
            }
        }
    }

    /** Does one bad thing per broadcast record. */
    static final class Misuse extends KeyedBroadcastProcessFunction<String, Reading, Rule, String> {
        @Override
        public void processElement(Reading r, ReadOnlyContext<String> ctx, Collector<String> out) {
            ctx.getBroadcastState(new MapStateDescriptor<String, Integer>("undeclared"));
        }

        @Override
        public void processBroadcastElement(Rule rule, Context<String> ctx, Collector<String> out) throws Exception {
            switch (rule.limit()) {
                case 0 -> ctx.getBroadcastState(LIMITS).put(null, 1);
                case 1 -> ((BroadcastState<Object, Integer>) (BroadcastState<?, ?>) ctx.getBroadcastState(LIMITS)).put(new int[] {1}, 1);
                default -> ctx.getBroadcastState(LIMITS).putAll(Map.of("lathe", 1, "mill", 2));
            }
        }
    }

    @Test
    void nullAndUnhashableKeysAndUnknownDescriptors_areRefusedNamingTheStateAndTheReason() throws Exception {
        try (var h = keyed(Misuse::new)) {
            assertThatThrownBy(() -> h.processElement2(new Rule("x", 0), 1)).rootCause().isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("broadcast state 'limits' of operator 'alarms' takes no null keys");
            assertThatThrownBy(() -> h.processElement2(new Rule("x", 1), 2)).cause().isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("broadcast state 'limits' of operator 'alarms' cannot take the key")
                    .hasMessageContaining("arrays are equal only to themselves");
            assertThatThrownBy(() -> h.processElement1(new Reading("m1", "lathe", 1), 3)).rootCause()
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("operator 'alarms' has no broadcast state 'undeclared': it has [limits]");
            h.processElement2(new Rule("x", 2), 4);
        }
    }

    /** Uses keyed state or a timer from the broadcast side, which has no current key. */
    static final class KeyedStateFromTheBroadcastSide extends KeyedBroadcastProcessFunction<String, Reading, Rule, String> {
        private transient ValueState<Integer> count;

        @Override
        public void open(RuntimeContext context) {
            count = context.state().getState(Alarms.COUNT);
        }

        @Override
        public void processElement(Reading r, ReadOnlyContext<String> ctx, Collector<String> out) {
            count.update(r.value());
            ctx.timerService().registerEventTimeTimer(r.value());
        }

        @Override
        public void processBroadcastElement(Rule rule, Context<String> ctx, Collector<String> out) throws Exception {
            count.value();
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext<String> ctx, Collector<String> out) throws Exception {
            out.collect(ctx.currentKey() + " " + ctx.timeDomain() + " " + timestamp + " " + count.value()
                    + " limit " + ctx.getBroadcastState(LIMITS).get("lathe"));
        }
    }

    @Test
    void theKeyedSideHasTimersAndKeyedState_theBroadcastSideHasNoCurrentKey() throws Exception {
        try (var h = keyed(KeyedStateFromTheBroadcastSide::new)) {
            h.processElement1(new Reading("m1", "lathe", 10), 1);
            h.processElement1(new Reading("m2", "lathe", 20), 1);
            h.processWatermark1(15);
            assertThat(h.extractOutputValues()).as("the watermark is the lower of both inputs'").isEmpty();
            h.processWatermark2(30);
            assertThat(h.extractOutputValues()).containsExactly("m1 EVENT_TIME 10 10 limit null");
            assertThatThrownBy(() -> h.processElement2(new Rule("lathe", 1), 16)).rootCause().isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void onlySubtaskZeroStoresTheBroadcastState_oneVersionedItemPerNonEmptyState() throws Exception {
        MapStateDescriptor<String, Object> other = new MapStateDescriptor<>("other");
        BroadcastStates states = new BroadcastStates(List.of(LIMITS, other), "op");
        states.writable(LIMITS).put("lathe", 80);
        states.writable(LIMITS).put("mill", 70);
        assertThat(states.snapshot(1)).isEmpty();
        var items = states.snapshot(0);
        assertThat(items).hasSize(1);

        BroadcastStates restored = new BroadcastStates(List.of(LIMITS, other), "op");
        restored.restore(items);
        assertThat(Map.copyOf(((BroadcastStateMap<?, ?>) restored.writable(LIMITS)).entries())).isEqualTo(Map.of("lathe", 80, "mill", 70));
        assertThat(restored.readOnly(other).isEmpty()).isTrue();

        BroadcastStates renamed = new BroadcastStates(List.of(other), "op");
        assertThatThrownBy(() -> renamed.restore(items)).hasMessageContaining("holds broadcast state 'limits', which the job no longer declares");
    }

    /** Passes readings over the limit of their type, not keyed. */
    static final class Unkeyed extends BroadcastProcessFunction<Reading, Rule, String> {
        @Override
        public void processElement(Reading r, ReadOnlyContext ctx, Collector<String> out) {
            Integer limit = ctx.getBroadcastState(LIMITS).get(r.type());
            if (limit != null && r.value() > limit) {
                out.collect(r.machine() + " " + r.value() + " at " + ctx.timestamp());
            }
        }

        @Override
        public void processBroadcastElement(Rule rule, Context ctx, Collector<String> out) {
            if (rule.type() == null) {
                ctx.output(REJECTED, rule);
            } else {
                ctx.getBroadcastState(LIMITS).put(rule.type(), rule.limit());
            }
        }
    }

    @Test
    void notKeyed_theBroadcastStateSurvivesRestores_andBadRulesGoToTheSideOutput() throws Exception {
        try (var h = TwoInputOperatorHarness.of(() -> new BroadcastProcessOperator<>(new Unkeyed(), List.of(LIMITS))).open()) {
            h.processElement2(new Rule("lathe", 80), 1);
            h.processElement2(new Rule(null, 10), 2);
            h.processElement1(new Reading("m1", "lathe", 81), 3);
            h.processElement1(new Reading("m2", "mill", 81), 4);
            h.processElement1(new Reading("m3", "lathe", 80), 5);
            assertThat(h.extractOutputValues()).containsExactly("m1 81 at 3");
            assertThat(h.sideOutputValues(REJECTED)).containsExactly(new Rule(null, 10));
            assertThat(h.restores()).isGreaterThanOrEqualTo(5);
        }
    }
}
