package io.millrace.api.functions;

import io.millrace.api.OutputTag;
import io.millrace.api.time.TimerService;

/**
 * A two-input function, for example a control stream and a data stream. On connected keyed streams the
 * two inputs share keyed state and timers; {@link #onTimer} is called only then.
 */
public abstract class CoProcessFunction<IN1, IN2, OUT> implements RichFunction, java.io.Serializable {

    public abstract void processElement1(IN1 value, Context ctx, Collector<OUT> out) throws Exception;

    public abstract void processElement2(IN2 value, Context ctx, Collector<OUT> out) throws Exception;

    public void onTimer(long timestamp, Context ctx, Collector<OUT> out) throws Exception {}

    /** Per-record context; valid only during the call. */
    public interface Context {
        long timestamp();

        /** Current key on keyed connected streams, otherwise null. */
        Object currentKey();

        /** Only on keyed connected streams; otherwise throws IllegalStateException. */
        TimerService timerService();

        long currentWatermark();

        <X> void output(OutputTag<X> tag, X value);
    }
}
