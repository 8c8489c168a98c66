package io.millrace.runtime.task;

import io.millrace.api.OutputTag;
import io.millrace.operator.Output;
import java.util.List;
import java.util.Map;

/**
 * The output of an operator with several consumers or side outputs: main records go to every main
 * consumer, side-output records to the consumers of their tag, watermarks to all. A side output with no
 * consumer is discarded (the planner rejects that for dead letters).
 */
final class OutputRouter<T> implements Output<T> {
    private final Output<T>[] main;
    private final Map<OutputTag<?>, Output<Object>[]> sides;
    private final Output<?>[] all;
    private final io.millrace.operator.OperatorMetricGroup metrics;

    @SuppressWarnings("unchecked")
    OutputRouter(List<Output<T>> main, Map<OutputTag<?>, List<Output<Object>>> sides, io.millrace.operator.OperatorMetricGroup metrics) {
        this.metrics = metrics;
        this.main = main.toArray(new Output[0]);
        this.sides = new java.util.HashMap<>();
        java.util.List<Output<?>> everyone = new java.util.ArrayList<>(main);
        sides.forEach((tag, outs) -> {
            this.sides.put(tag, outs.toArray(new Output[0]));
            everyone.addAll(outs);
        });
        this.all = everyone.toArray(new Output[0]);
    }

    @Override
    public void emit(T value, long timestamp) {
        metrics.recordsOut++;
        for (Output<T> o : main) {
            o.emit(value, timestamp);
        }
    }

    @Override
    public <X> void emit(OutputTag<X> tag, X value, long timestamp) {
        Output<Object>[] outs = sides.get(tag);
        if (outs != null) {
            for (Output<Object> o : outs) {
                o.emit(value, timestamp);
            }
        }
    }

    @Override
    public void emitWatermark(long watermark) {
        for (Output<?> o : all) {
            o.emitWatermark(watermark);
        }
    }
}
