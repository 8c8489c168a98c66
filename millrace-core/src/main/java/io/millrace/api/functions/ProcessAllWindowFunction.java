package io.millrace.api.functions;

import io.millrace.api.window.Window;

/**
 * Sees a whole window of a non-keyed stream ({@code DataStream.windowAll}) when it fires: its metadata and its
 * contents (all elements, or the single pre-aggregated result when combined with a reduce or aggregate function).
 * As {@link ProcessWindowFunction}, without a key.
 */
public abstract class ProcessAllWindowFunction<IN, OUT, W extends Window> implements RichFunction, java.io.Serializable {

    public abstract void process(Context<W> ctx, Iterable<IN> elements, Collector<OUT> out) throws Exception;

    /** Window context, the same as a keyed window function's; valid only during the call. */
    public interface Context<W extends Window> extends ProcessWindowFunction.Context<W> {}
}
