package io.millrace.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.operator.OperatorMetricGroup;
import io.millrace.operator.Output;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** An operator read by exactly two consumers hands each record and watermark to both, counted once. */
class PairOutputTest {
    /** Keeps what it is given, as "value@timestamp" and "wm:watermark". */
    static final class Recording implements Output<Object> {
        final List<String> seen = new ArrayList<>();

        @Override
        public void emit(Object value, long timestamp) {
            seen.add(value + "@" + timestamp);
        }

        @Override
        public <X> void emit(OutputTag<X> tag, X value, long timestamp) {
            seen.add("side " + value);
        }

        @Override
        public void emitWatermark(long watermark) {
            seen.add("wm:" + watermark);
        }
    }

    @Test
    void bothConsumers_getEveryRecordAndWatermarkInOrder_andTheRecordIsCountedOnce() {
        Recording a = new Recording();
        Recording b = new Recording();
        OperatorMetricGroup metrics = new OperatorMetricGroup("source", 0);
        PairOutput<Object> out = new PairOutput<>(a, b, metrics);
        out.emit("x", 5);
        out.emitWatermark(6);
        out.emit("y", 7);
        assertThat(a.seen).containsExactly("x@5", "wm:6", "y@7");
        assertThat(b.seen).containsExactly("x@5", "wm:6", "y@7");
        assertThat(metrics.recordsOut).isEqualTo(2);
    }

    @Test
    void aSourceReadByTwoBranches_feedsBoth() {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Long> evens = new CollectSink<>();
        CollectSink<Long> odds = new CollectSink<>();
        DataStream<Long> numbers = p.fromSource(GeneratorSource.<Long>builder(i -> i).count(1_000).build(),
                WatermarkStrategy.noWatermarks(), "numbers");
        numbers.filter(i -> i % 2 == 0).sinkTo(evens);
        numbers.filter(i -> i % 2 == 1).map(i -> i * 10).sinkTo(odds);
        p.execute("two branches");
        assertThat(evens.results()).containsExactlyInAnyOrderElementsOf(LongStream.range(0, 1_000).filter(i -> i % 2 == 0).boxed().toList());
        assertThat(odds.results()).containsExactlyInAnyOrderElementsOf(LongStream.range(0, 1_000).filter(i -> i % 2 == 1).map(i -> i * 10).boxed().toList());
    }
}
