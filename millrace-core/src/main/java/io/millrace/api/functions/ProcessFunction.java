package io.millrace.api.functions;

import io.millrace.api.OutputTag;
import io.millrace.api.time.TimerService;

/**
 * The most general one-input function on a non-keyed stream: sees each record with its timestamp,
 * the current watermark, processing time, and can emit to side outputs. Timers need a keyed stream
 * ({@link KeyedProcessFunction}).
 */
public abstract class ProcessFunction<IN, OUT> implements RichFunction, java.io.Serializable {

    public abstract void processElement(IN value, Context ctx, Collector<OUT> out) throws Exception;

    /** Per-record context; valid only during the call. */
    public interface Context {
        /** Event timestamp of the record, or {@code Long.MIN_VALUE} if it has none. */
        long timestamp();

        long currentWatermark();

        long currentProcessingTime();

        <X> void output(OutputTag<X> tag, X value);
    }
}
