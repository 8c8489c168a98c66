package io.millrace.runtime.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.JobResult;
import io.millrace.api.KeyedStream;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.metrics.OperatorMetrics;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.Triggers;
import io.millrace.api.window.Windows;
import io.millrace.runtime.plan.PhysicalPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Which windows the planner gives a local aggregator, where it runs, and that the others keep their plan. */
class LocalAggregationPlanTest {

    private static String plan(PipelineConfig config, Function<KeyedStream<String, Ev>, DataStream<?>> window) {
        Pipeline p = Pipeline.create(config);
        DataStream<Ev> events = p.fromElements(new Ev("a", 1))
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, t) -> e.value()));
        window.apply(events.keyBy(Ev::key)).name("windows").sinkTo(new CollectSink<>());
        return PhysicalPlan.of(p.plan()).describe();
    }

    private static String plan(Function<KeyedStream<String, Ev>, DataStream<?>> window) {
        return plan(new PipelineConfig().parallelism(2), window);
    }

    @Test
    void eligibleWindows_getALocalAggregatorChainedToTheirInputBeforeTheHashExchange() {
        String tumbling = plan(k -> k.window(Windows.tumbling(Duration.ofMillis(10))).reduce(Ev::reduceSum));
        assertThat(tumbling).contains("x2: timestamps -> windows (local)\n  HASH -> task 2").contains("task 2 x2: windows");
        assertThat(plan(k -> k.window(Windows.sliding(Duration.ofMillis(30), Duration.ofMillis(10))).aggregate(new Ev.SumCount())))
                .contains("-> windows (local)\n");
        assertThat(plan(k -> k.window(Windows.tumbling(Duration.ofMillis(10))).reduce(Ev::reduceSum, new Label())))
                .as("with a process window function on top").contains("-> windows (local)\n");
    }

    @Test
    void theLocalAggregator_runsAtItsInputsParallelism_oncePerInputOfAUnion() {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(3));
        WatermarkStrategy<Ev> ts = WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, t) -> e.value());
        DataStream<Ev> first = p.fromElements(new Ev("a", 1)).assignTimestampsAndWatermarks(ts).parallelism(1).name("first");
        DataStream<Ev> second = p.fromElements(new Ev("b", 2)).assignTimestampsAndWatermarks(ts).name("second").map(e -> e).parallelism(2).name("widened");
        first.union(second).keyBy(Ev::key).window(Windows.tumbling(Duration.ofMillis(10))).reduce(Ev::reduceSum).name("windows")
                .sinkTo(new CollectSink<>());
        String plan = PhysicalPlan.of(p.plan()).describe();
        assertThat(plan).contains("x1: collection -> first -> windows (local 1)\n").contains("x2: widened -> windows (local 2)\n").contains("x3: windows");
    }

    @Test
    void ineligibleWindows_keepTheirPlan() {
        OutputTag<Ev> late = new OutputTag<>("late");
        List<String> plans = new ArrayList<>();
        plans.add(plan(k -> k.window(Windows.tumbling(Duration.ofMillis(10))).sideOutputLateData(late).reduce(Ev::reduceSum)));
        plans.add(plan(k -> k.window(Windows.tumbling(Duration.ofMillis(10))).allowedLateness(Duration.ofMillis(5)).reduce(Ev::reduceSum)));
        plans.add(plan(k -> k.window(Windows.session(Duration.ofMillis(10))).reduce(Ev::reduceSum)));
        plans.add(plan(k -> k.window(Windows.tumbling(Duration.ofMillis(10)).inProcessingTime()).reduce(Ev::reduceSum)));
        plans.add(plan(k -> k.window(Windows.tumbling(Duration.ofMillis(10))).trigger(Triggers.count(2)).reduce(Ev::reduceSum)));
        plans.add(plan(k -> k.window(Windows.tumbling(Duration.ofMillis(10))).process(new Label())));
        plans.add(plan(k -> k.countWindow(3).reduce(Ev::reduceSum)));
        Object notSerializable = new Object();
        plans.add(plan(k -> k.window(Windows.tumbling(Duration.ofMillis(10))).reduce((a, b) -> notSerializable.equals(b) ? b : a)));
        plans.add(plan(new PipelineConfig().parallelism(2).localWindowAggregation(false),
                k -> k.window(Windows.tumbling(Duration.ofMillis(10))).reduce(Ev::reduceSum)));
        assertThat(plans).hasSize(9).allSatisfy(plan -> assertThat(plan).doesNotContain("(local").contains("x2: timestamps\n  HASH -> task 2"));
    }

    /** "key@windowEnd=sum". */
    static final class Label extends ProcessWindowFunction<Ev, String, String, TimeWindow> {
        @Override
        public void process(String key, Context<TimeWindow> ctx, Iterable<Ev> sums, Collector<String> out) {
            out.collect(key + "@" + ctx.window().end() + "=" + sums.iterator().next().value());
        }
    }

    @Test
    void aWindowWithALateDataSideOutput_sendsItsLateRecordsThereOneByOne() {
        List<Ev> events = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            events.add(new Ev("k" + i % 3, i * 10L));
            if (i >= 599 && i % 100 == 99) {
                // 500 records behind, while a watermark follows every 256 records: late for every window it is in
                events.add(new Ev("k" + i % 3, i * 10L - 5000));
            }
        }
        OutputTag<Ev> lateTag = new OutputTag<>("late");
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2).watermarkInterval(Duration.ZERO));
        var windows = p.fromCollection(events)
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Ev>monotonous().withTimestampAssigner((e, t) -> e.value())).parallelism(1)
                .keyBy(Ev::key).window(Windows.tumbling(Duration.ofMillis(100))).sideOutputLateData(lateTag)
                .reduce(Ev::reduceSum, new Label()).name("windows");
        CollectSink<String> results = new CollectSink<>();
        CollectSink<Ev> late = new CollectSink<>();
        windows.sinkTo(results);
        windows.getSideOutput(lateTag).sinkTo(late);
        JobResult result = p.execute("late side output");

        assertThat(late.results()).as("each late record by itself").containsExactlyInAnyOrder(
                new Ev("k2", 990), new Ev("k0", 1990), new Ev("k1", 2990), new Ev("k2", 3990), new Ev("k0", 4990));
        assertThat(result.metrics().sum("windows", OperatorMetrics::recordsIn)).as("every record reached the window").isEqualTo(events.size());
        assertThat(result.metrics().sum("windows", OperatorMetrics::lateRecordsDiverted)).isEqualTo(5);
        assertThat(results.results()).hasSize(100 * 3).contains("k2@1000=" + (920 + 950 + 980));
    }
}
