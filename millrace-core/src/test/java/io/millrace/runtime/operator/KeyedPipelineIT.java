package io.millrace.runtime.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.CoProcessFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Keyed process and co-process operators in real pipelines of the local runtime, at parallelism 2. */
class KeyedPipelineIT {

    /** Counts records per key and emits "key=count" once, when the input ends (timer at +∞). */
    static final class CountAtEnd extends KeyedProcessFunction<Integer, Integer, String> {
        private transient ValueState<Integer> count;

        @Override
        public void open(RuntimeContext context) {
            count = context.state().getState(new ValueStateDescriptor<>("count"));
        }

        @Override
        public void processElement(Integer value, Context<Integer> ctx, Collector<String> out) {
            Integer c = count.value();
            count.update(c == null ? 1 : c + 1);
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext<Integer> ctx, Collector<String> out) {
            out.collect(ctx.currentKey() + "=" + count.value());
        }
    }

    private static List<Integer> range(int n) {
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(i);
        }
        return list;
    }

    @Test
    void keyedProcessWithStateAndTimers_countsEveryKeyOnce() {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> sink = new CollectSink<>();
        p.fromCollection(range(10_000)).keyBy(x -> x % 13).process(new CountAtEnd()).sinkTo(sink);
        p.execute("count-at-end");

        Map<Integer, Integer> expected = new HashMap<>();
        range(10_000).forEach(x -> expected.merge(x % 13, 1, Integer::sum));
        assertThat(sink.results()).containsExactlyInAnyOrderElementsOf(
                expected.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
    }

    @Test
    void runningReduce_perKey_endsWithTheKeysSum() {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Integer> sink = new CollectSink<>();
        p.fromCollection(range(1_000)).keyBy(x -> x % 2).reduce(Integer::sum).sinkTo(sink);
        p.execute("reduce");
        assertThat(sink.results()).hasSize(1_000).contains(249_500, 250_000);
    }

    /** Passes data of keys the control stream enabled; data that arrives first waits in list state. */
    static final class Gate extends CoProcessFunction<Integer, Integer, Integer> {
        private transient ValueState<Boolean> enabled;
        private transient ListState<Integer> waiting;

        @Override
        public void open(RuntimeContext context) {
            enabled = context.state().getState(new ValueStateDescriptor<>("enabled"));
            waiting = context.state().getListState(new ListStateDescriptor<>("waiting"));
        }

        @Override
        public void processElement1(Integer key, Context ctx, Collector<Integer> out) {
            enabled.update(Boolean.TRUE);
            waiting.get().forEach(out::collect);
            waiting.clear();
        }

        @Override
        public void processElement2(Integer value, Context ctx, Collector<Integer> out) {
            if (enabled.value() != null) {
                out.collect(value);
            } else {
                waiting.add(value);
            }
        }
    }

    @Test
    void keyedConnectedStreams_shareStateAcrossInputs() {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Integer> sink = new CollectSink<>();
        DataStream<Integer> control = p.fromCollection(List.of(3, 5));
        DataStream<Integer> data = p.fromCollection(range(100));
        control.connect(data).keyBy(k -> k, v -> v % 10).process(new Gate()).sinkTo(sink);
        p.execute("gate");
        assertThat(sink.results()).containsExactlyInAnyOrderElementsOf(
                range(100).stream().filter(v -> v % 10 == 3 || v % 10 == 5).toList());
    }
}
