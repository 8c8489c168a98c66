package io.millrace.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.JobResult;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.CoProcessFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.metrics.OperatorMetrics;
import io.millrace.api.sink.CollectSink;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Regression: keyed process and co-process operators counted their records in and out themselves, on top of
 * the runtime's counting at the task head and the chain/network outputs, so their metrics showed twice the
 * records. Each record is now counted once, by the runtime.
 */
class ProcessOperatorMetricsIT {
    private static final OutputTag<Integer> ODD = new OutputTag<>("odd");

    /** Emits every record; odd ones also to a side output. */
    static final class EchoAndOdd extends KeyedProcessFunction<Integer, Integer, Integer> {
        @Override
        public void processElement(Integer value, Context<Integer> ctx, Collector<Integer> out) {
            out.collect(value);
            if (value % 2 == 1) {
                ctx.output(ODD, value);
            }
        }
    }

    /** Emits every record of both inputs. */
    static final class Both extends CoProcessFunction<Integer, Integer, Integer> {
        @Override
        public void processElement1(Integer value, Context ctx, Collector<Integer> out) {
            out.collect(value);
        }

        @Override
        public void processElement2(Integer value, Context ctx, Collector<Integer> out) {
            out.collect(value);
        }
    }

    @Test
    void keyedProcessAndCoProcess_countEachRecordInAndOutOnce() {
        List<Integer> numbers = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            numbers.add(i);
        }
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Integer> main = new CollectSink<>();
        CollectSink<Integer> odd = new CollectSink<>();
        CollectSink<Integer> joined = new CollectSink<>();
        DataStream<Integer> echoed = p.fromCollection(numbers).keyBy(x -> x % 7).process(new EchoAndOdd()).name("echo");
        echoed.sinkTo(main);
        echoed.getSideOutput(ODD).sinkTo(odd);
        p.fromCollection(numbers).connect(p.fromCollection(numbers.subList(0, 300)))
                .keyBy(x -> x % 5, x -> x % 5)
                .process(new Both())
                .name("both")
                .sinkTo(joined);
        JobResult result = p.execute("metrics");

        assertThat(main.size() + odd.size()).isEqualTo(1_500);
        assertThat(joined.size()).isEqualTo(1_300);
        assertThat(result.metrics().sum("echo", OperatorMetrics::recordsIn)).isEqualTo(1_000);
        assertThat(result.metrics().sum("echo", OperatorMetrics::recordsOut)).as("main output only (docs/runtime.md)").isEqualTo(1_000);
        assertThat(result.metrics().sum("both", OperatorMetrics::recordsIn)).isEqualTo(1_300);
        assertThat(result.metrics().sum("both", OperatorMetrics::recordsOut)).isEqualTo(1_300);
    }
}
