package io.millrace.runtime.task;

import io.millrace.api.OutputTag;
import io.millrace.operator.OperatorMetricGroup;
import io.millrace.operator.Output;
import io.millrace.runtime.exchange.RecordWriter;

/** Sends an operator's output over an exchange edge to the subtasks of another task. */
final class NetworkOutput<T> implements Output<T> {
    private final RecordWriter writer;
    private final OperatorMetricGroup from;

    NetworkOutput(RecordWriter writer, OperatorMetricGroup from) {
        this.writer = writer;
        this.from = from;
    }

    @Override
    public void emit(T value, long timestamp) {
        from.recordsOut++;
        writer.emit(value, timestamp);
    }

    @Override
    public <X> void emit(OutputTag<X> tag, X value, long timestamp) {
        // side outputs reach a network edge only through the router, as main records of that edge
    }

    /** The writer may hold the watermark back a little (it coalesces them); see {@link RecordWriter}. */
    @Override
    public void emitWatermark(long watermark) {
        writer.emitWatermark(watermark);
    }
}
