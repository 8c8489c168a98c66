package io.millrace.runtime.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.DataStream;
import io.millrace.api.JobExecutionException;
import io.millrace.api.JobResult;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessFunction;
import io.millrace.api.sink.CollectSink;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class StatelessPipelineTest {

    private static List<Integer> range(int n) {
        return IntStream.range(0, n).boxed().collect(Collectors.toList());
    }

    @Test
    void mapFilterFlatMap_overRebalancedParallelStream_giveEveryResultOnce() {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2).batchSize(7));
        CollectSink<Integer> sink = new CollectSink<>();
        p.fromCollection(range(10_000))
                .rebalance()
                .map(x -> x * 3)
                .filter(x -> x % 2 == 0)
                .flatMap((Integer x, Collector<Integer> out) -> {
                    out.collect(x);
                    out.collect(-x);
                })
                .sinkTo(sink);
        JobResult result = p.execute("stateless");

        List<Integer> expected = new ArrayList<>();
        for (int x = 0; x < 10_000; x++) {
            int y = x * 3;
            if (y % 2 == 0) {
                expected.add(y);
                expected.add(-y);
            }
        }
        assertThat(sink.results()).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(result.metrics().sum("map", m -> m.recordsIn())).isEqualTo(10_000);
        assertThat(result.metrics().sum("filter", m -> m.recordsOut())).isEqualTo(5_000);
    }

    @Test
    void operatorWithSeveralConsumers_countsEachEmittedRecordOnce() {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Integer> chained = new CollectSink<>();
        CollectSink<Integer> rebalanced = new CollectSink<>();
        DataStream<Integer> doubled = p.fromCollection(range(1000)).name("numbers").map(x -> x * 2).name("double");
        doubled.sinkTo(chained);
        doubled.rebalance().sinkTo(rebalanced);
        JobResult result = p.execute("fan-out");
        assertThat(chained.size()).isEqualTo(1000);
        assertThat(rebalanced.size()).isEqualTo(1000);
        assertThat(result.metrics().sum("double", m -> m.recordsOut())).isEqualTo(1000);
        assertThat(result.metrics().sum("numbers", m -> m.recordsOut())).isEqualTo(1000);
    }

    @Test
    void union_ofTwoSources_deliversBoth() {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Integer> sink = new CollectSink<>();
        DataStream<Integer> a = p.fromCollection(range(1000));
        DataStream<Integer> b = p.fromCollection(range(1000)).map(x -> x + 1000);
        a.union(b).map(x -> x).sinkTo(sink);
        p.execute("union");
        assertThat(sink.results()).containsExactlyInAnyOrderElementsOf(range(2000));
    }

    @Test
    void sideOutput_ofProcessFunction_reachesItsOwnSink() {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
        OutputTag<String> odd = new OutputTag<>("odd");
        CollectSink<Integer> evens = new CollectSink<>();
        CollectSink<String> odds = new CollectSink<>();
        DataStream<Integer> main = p.fromCollection(range(100)).process(new ProcessFunction<Integer, Integer>() {
            @Override
            public void processElement(Integer value, Context ctx, Collector<Integer> out) {
                if (value % 2 == 0) {
                    out.collect(value);
                } else {
                    ctx.output(odd, "odd-" + value);
                }
            }
        });
        main.sinkTo(evens);
        main.getSideOutput(odd).sinkTo(odds);
        p.execute("side");
        assertThat(evens.results()).hasSize(50).allMatch(x -> x % 2 == 0);
        assertThat(odds.results()).hasSize(50).allMatch(s -> s.startsWith("odd-"));
    }

    @Test
    void failingMapFunction_failsTheJob_namingOperatorAndRecord() {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        p.fromCollection(range(100))
                .map(x -> {
                    if (x == 42) {
                        throw new IllegalStateException("boom");
                    }
                    return x;
                })
                .name("fragile-map")
                .sinkTo(new CollectSink<>());
        assertThatThrownBy(() -> p.execute("failing"))
                .isInstanceOf(JobExecutionException.class)
                .hasMessageContaining("fragile-map")
                .hasMessageContaining("record 42")
                .hasMessageContaining("boom");
    }

    @Test
    void forwardEdge_betweenDifferentParallelisms_isRejectedWithBothNames() {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        p.fromCollection(range(10)).map(x -> x).name("one").parallelism(1).forward().map(x -> x).name("two").sinkTo(new CollectSink<>());
        assertThatThrownBy(() -> p.execute("bad-forward"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'one' -> 'two'");
    }
}
