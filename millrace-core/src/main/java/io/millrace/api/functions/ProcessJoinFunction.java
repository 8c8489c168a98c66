package io.millrace.api.functions;

import io.millrace.api.OutputTag;

/**
 * Sees each matching pair of an interval join with both rows' event timestamps. Called on the join's task thread,
 * once per pair, when the second row of the pair arrives; must not change its arguments (a row may match several
 * rows of the other side). What it emits carries the pair's {@link Context#timestamp()}.
 */
public abstract class ProcessJoinFunction<A, B, R> implements RichFunction, java.io.Serializable {

    public abstract void processElement(A left, B right, Context ctx, Collector<R> out) throws Exception;

    /** The pair being joined; valid only during the call. */
    public interface Context {
        /** Event timestamp of the left row. */
        long leftTimestamp();

        /** Event timestamp of the right row. */
        long rightTimestamp();

        /** Timestamp of the results: the later of the two rows' timestamps. */
        long timestamp();

        /** The join's event-time watermark (the lower of both inputs'). */
        long currentWatermark();

        /** Emits to a side output, with {@link #timestamp()}. */
        <X> void output(OutputTag<X> tag, X value);
    }
}
