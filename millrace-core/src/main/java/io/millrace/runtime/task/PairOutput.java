package io.millrace.runtime.task;

import io.millrace.api.OutputTag;
import io.millrace.operator.OperatorMetricGroup;
import io.millrace.operator.Output;

/**
 * The output of an operator with exactly two consumers of its main output and no side outputs (a source read by
 * two branches, say persons and auctions): {@link OutputRouter} without the loop over an array, so that each of
 * the two calls has one receiver and is inlined (it runs as a copy of this class per class of its first consumer,
 * see {@link io.millrace.runtime.operator.ClassCopies}).
 */
final class PairOutput<T> implements Output<T> {
    private final Output<T> first;
    private final Output<T> second;
    private final OperatorMetricGroup metrics;

    PairOutput(Output<T> first, Output<T> second, OperatorMetricGroup metrics) {
        this.first = first;
        this.second = second;
        this.metrics = metrics;
    }

    @Override
    public void emit(T value, long timestamp) {
        metrics.recordsOut++;
        first.emit(value, timestamp);
        second.emit(value, timestamp);
    }

    @Override
    public <X> void emit(OutputTag<X> tag, X value, long timestamp) {
        // used only for an operator without side outputs (else OutputRouter)
    }

    @Override
    public void emitWatermark(long watermark) {
        first.emitWatermark(watermark);
        second.emitWatermark(watermark);
    }
}
