package io.millrace.api.functions;

import io.millrace.api.OutputTag;
import io.millrace.api.time.TimerService;

/**
 * A one-input function on a keyed stream with keyed state (through {@link RuntimeContext#state()}) and
 * per-key timers. Timers are deduplicated per key and timestamp; {@link #onTimer} runs with the timer's
 * key as current key and the timer's timestamp as the timestamp of emitted records.
 */
public abstract class KeyedProcessFunction<K, IN, OUT> implements RichFunction, java.io.Serializable {

    public abstract void processElement(IN value, Context<K> ctx, Collector<OUT> out) throws Exception;

    public void onTimer(long timestamp, OnTimerContext<K> ctx, Collector<OUT> out) throws Exception {}

    /** Per-record context; valid only during the call. */
    public interface Context<K> {
        long timestamp();

        K currentKey();

        TimerService timerService();

        <X> void output(OutputTag<X> tag, X value);
    }

    /** Context of a firing timer. */
    public interface OnTimerContext<K> extends Context<K> {
        io.millrace.api.time.TimeDomain timeDomain();
    }
}
