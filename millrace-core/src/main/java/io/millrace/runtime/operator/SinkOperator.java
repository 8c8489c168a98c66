package io.millrace.runtime.operator;

import io.millrace.api.sink.Sink;
import io.millrace.api.sink.SinkWriter;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.EmitPoint;
import io.millrace.operator.OneInputOperator;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.UserFunctionException;

/** Hands records to a {@link SinkWriter}; flushes it on every watermark advance and at the end. */
public final class SinkOperator<T> extends AbstractStreamOperator<Void> implements OneInputOperator<T, Void> {
    private final Sink<T> sink;
    private SinkWriter<T> writer;

    public SinkOperator(Sink<T> sink) {
        this.sink = sink;
    }

    @Override
    public void open(OperatorContext ctx, Output<Void> output) throws Exception {
        super.open(ctx, output);
        writer = sink.createWriter(SinkContexts.of(ctx, ctx.subtaskIndex()));
    }

    @Override
    public void processRecord(T value, long timestamp) {
        try {
            writer.write(value, timestamp);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        currentWatermark = watermark;
        metrics.watermark(watermark);
        writer.onWatermark(watermark);
        writer.flush(false);
    }

    /**
     * Only the final watermark, unless the writer reacts to watermarks ({@code onWatermark} of its own): what a
     * watermark flushes, running out of input flushes too ({@link #emitHeldBack}).
     */
    @Override
    public long watermarkToAct() {
        return SinkWatermarks.writerReacts(writer) ? Long.MIN_VALUE : Long.MAX_VALUE;
    }

    /**
     * Makes the writer's buffered output visible when the subtask waits for input and when the task sends its
     * partial batches. A barrier or idleness does not flush: nothing downstream of a sink waits for its output.
     */
    @Override
    public void emitHeldBack(EmitPoint point) throws Exception {
        if (point == EmitPoint.WAITING_FOR_INPUT || point == EmitPoint.OUTPUT_FLUSH) {
            writer.flush(false);
        }
    }

    @Override
    public void endInput() throws Exception {
        writer.flush(true);
    }

    @Override
    public void close() throws Exception {
        if (writer != null) {
            SinkWriter<T> w = writer;
            writer = null;
            w.close();
        }
    }
}
