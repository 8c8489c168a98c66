package io.millrace.operator;

import io.millrace.api.OutputTag;

/**
 * Where an operator emits. Called only by the operator's task thread. Calls may block while a
 * downstream channel is full (that is how backpressure reaches the producer); the task gates the
 * intake of new input on its outputs being writable, so one input batch can overdraw a full channel
 * by at most its own output. Records must not be changed after they are emitted. A call blocked on a full
 * channel when the job is cancelled throws {@link TaskCancelledException}: let it pass.
 */
public interface Output<T> {
    /** Emits to the main output, with its event timestamp ({@code Long.MIN_VALUE} for none). */
    void emit(T value, long timestamp);

    /** Emits to a side output; a side output nobody consumes discards the record. */
    <X> void emit(OutputTag<X> tag, X value, long timestamp);

    /** Passes a watermark on; must be called in order with records (after those it follows). */
    void emitWatermark(long watermark);
}
