package io.millrace.runtime.task;

import io.millrace.api.OutputTag;
import io.millrace.operator.Output;

/** The output of an operator that nothing consumes (a sink). */
final class DiscardingOutput<T> implements Output<T> {
    @Override
    public void emit(T value, long timestamp) {}

    @Override
    public <X> void emit(OutputTag<X> tag, X value, long timestamp) {}

    @Override
    public void emitWatermark(long watermark) {}
}
