package io.millrace.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.functions.BroadcastProcessFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedBroadcastProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.StateTtlConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The broadcast API: what it refuses and why, and that a broadcast stream reaches every subtask of a stream not keyed. */
class BroadcastApiTest {
    static final MapStateDescriptor<String, Integer> LIMITS = new MapStateDescriptor<>("limits");

    static final class Plain extends BroadcastProcessFunction<Integer, String, String> {
        private transient int subtask;

        @Override
        public void open(RuntimeContext context) {
            subtask = context.subtaskIndex();
        }

        @Override
        public void processElement(Integer value, ReadOnlyContext ctx, Collector<String> out) {
            out.collect("data " + value);
        }

        @Override
        public void processBroadcastElement(String rule, Context ctx, Collector<String> out) {
            ctx.getBroadcastState(LIMITS).put(rule, subtask);
            out.collect("subtask " + subtask + " has " + ctx.getBroadcastState(LIMITS).size() + " after " + rule);
        }
    }

    static final class Keyed extends KeyedBroadcastProcessFunction<Integer, Integer, String, String> {
        @Override
        public void processElement(Integer value, ReadOnlyContext<Integer> ctx, Collector<String> out) {}

        @Override
        public void processBroadcastElement(String rule, Context<Integer> ctx, Collector<String> out) {}
    }

    @Test
    void broadcast_needsAtLeastOneDescriptor_uniqueNames_andNoTimeToLive() {
        DataStream<String> rules = Pipeline.create().fromElements("a");
        assertThatThrownBy(() -> rules.broadcast(new MapStateDescriptor<?, ?>[0])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("name at least one broadcast state");
        assertThatThrownBy(() -> rules.broadcast(LIMITS, new MapStateDescriptor<String, String>("limits")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two broadcast states are named 'limits'");
        MapStateDescriptor<String, Integer> expiring = new MapStateDescriptor<>("expiring");
        expiring.enableTimeToLive(StateTtlConfig.afterWrite(Duration.ofMinutes(1)));
        assertThatThrownBy(() -> rules.broadcast(expiring)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("broadcast state 'expiring' has a time-to-live");
    }

    @Test
    void theFunctionMustFitTheStream_keyedForAKeyedFunction_notKeyedForAPlainOne() {
        Pipeline p = Pipeline.create();
        BroadcastStream<String> rules = p.fromElements("a").broadcast(LIMITS);
        DataStream<Integer> data = p.fromElements(1, 2);
        assertThatThrownBy(() -> data.connect(rules).process(new Keyed())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("needs a keyed stream: call keyBy before connect");
        assertThatThrownBy(() -> data.keyBy(i -> i).connect(rules).process(new Plain())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("on a keyed stream use a KeyedBroadcastProcessFunction");
        BroadcastStream<String> elsewhere = Pipeline.create().fromElements("b").broadcast(LIMITS);
        assertThatThrownBy(() -> data.connect(elsewhere)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("different pipelines");
    }

    @Test
    void everyBroadcastRecord_reachesEverySubtaskInOrder_andTheDataPassesOnce() {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(3));
        CollectSink<String> out = new CollectSink<>();
        List<Integer> data = IntStream.range(0, 300).boxed().toList();
        p.fromCollection(data).rebalance().connect(p.fromElements("r1", "r2", "r3").broadcast(LIMITS))
                .process(new Plain()).sinkTo(out);
        p.execute("broadcast to every subtask");

        List<String> expected = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            for (int r = 1; r <= 3; r++) {
                expected.add("subtask " + s + " has " + r + " after r" + r);
            }
        }
        data.forEach(i -> expected.add("data " + i));
        assertThat(out.results()).containsExactlyInAnyOrderElementsOf(expected);
    }
}
