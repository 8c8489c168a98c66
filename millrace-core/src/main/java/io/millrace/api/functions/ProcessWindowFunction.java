package io.millrace.api.functions;

import io.millrace.api.OutputTag;
import io.millrace.api.window.Window;

/**
 * Sees a whole window when it fires: its key, its metadata and its contents (all elements, or the
 * single pre-aggregated result when combined with a reduce or aggregate function).
 */
public abstract class ProcessWindowFunction<IN, OUT, K, W extends Window> implements RichFunction, java.io.Serializable {

    public abstract void process(K key, Context<W> ctx, Iterable<IN> elements, Collector<OUT> out) throws Exception;

    /** Window context; valid only during the call. */
    public interface Context<W extends Window> {
        W window();

        long currentWatermark();

        long currentProcessingTime();

        /** 0 for the first firing of this window, then 1, 2, ... for late or early re-firings. */
        int firing();

        <X> void output(OutputTag<X> tag, X value);
    }
}
