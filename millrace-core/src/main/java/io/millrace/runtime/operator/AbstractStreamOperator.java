package io.millrace.runtime.operator;

import io.millrace.runtime.metrics.OperatorMetricGroup;

/**
 * Base of most operators: keeps the context, the output and the metrics, tracks the current
 * watermark, and forwards watermarks. Keyed subclasses override {@link #processWatermark} to fire
 * timers first (see {@code KeyedStateBackend#advanceWatermark}) and then call super.
 */
public abstract class AbstractStreamOperator<OUT> implements StreamOperator<OUT> {
    protected OperatorContext context;
    protected Output<OUT> output;
    protected OperatorMetricGroup metrics;
    protected long currentWatermark = Long.MIN_VALUE;

    @Override
    public void open(OperatorContext context, Output<OUT> output) throws Exception {
        this.context = context;
        this.output = output;
        this.metrics = context.metrics();
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        currentWatermark = watermark;
        metrics.watermark(watermark);
        output.emitWatermark(watermark);
    }

    public long currentWatermark() {
        return currentWatermark;
    }
}
