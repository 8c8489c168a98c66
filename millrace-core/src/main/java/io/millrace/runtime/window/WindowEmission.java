package io.millrace.runtime.window;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.window.Window;
import io.millrace.operator.Output;
import java.util.Collections;
import java.util.function.LongSupplier;

/**
 * Emits one window firing: directly, or through the user's process window function, to which it is the
 * context and the collector. One instance per operator, reset by {@link #start} before each firing; task
 * thread only. Every record emitted carries the window's max timestamp.
 */
final class WindowEmission implements ProcessWindowFunction.Context<Window>, Collector<Object> {
    private final Output<Object> output;
    private final ProcessWindowFunction<Object, Object, Object, Window> function;
    /** The operator's processing time, asked only when the window function wants it (a clock read per key is not free). */
    private final LongSupplier processingTime;
    private Object key;
    private Window window;
    private int firing;
    private long watermark;
    private long timestamp;

    @SuppressWarnings("unchecked")
    WindowEmission(Output<?> output, ProcessWindowFunction<?, ?, ?, ?> function, LongSupplier processingTime) {
        this.output = (Output<Object>) output;
        this.function = (ProcessWindowFunction<Object, Object, Object, Window>) function;
        this.processingTime = processingTime;
    }

    void start(Object key, Window window, int firing, long watermark) {
        this.key = key;
        this.window = window;
        this.firing = firing;
        this.watermark = watermark;
        this.timestamp = window.maxTimestamp();
    }

    /** The window's folded value: the output itself, or the single element given to the window function. */
    void emitValue(Object value) throws Exception {
        if (function == null) {
            output.emit(value, timestamp);
        } else {
            function.process(key, this, Collections.singletonList(value), this);
        }
    }

    /** All records of the window, for the window function (which list contents always have). */
    void emitElements(Iterable<?> elements) throws Exception {
        @SuppressWarnings("unchecked")
        Iterable<Object> all = (Iterable<Object>) elements;
        function.process(key, this, all, this);
    }

    @Override
    public void collect(Object value) {
        output.emit(value, timestamp);
    }

    @Override
    public Window window() {
        return window;
    }

    @Override
    public long currentWatermark() {
        return watermark;
    }

    @Override
    public long currentProcessingTime() {
        return processingTime.getAsLong();
    }

    @Override
    public int firing() {
        return firing;
    }

    @Override
    public <X> void output(OutputTag<X> tag, X value) {
        output.emit(tag, value, timestamp);
    }
}
