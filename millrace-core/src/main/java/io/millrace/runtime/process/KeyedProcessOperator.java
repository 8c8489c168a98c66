package io.millrace.runtime.process;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.time.TimeDomain;
import io.millrace.api.time.TimerService;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.KeyedInput;
import io.millrace.operator.OneInputOperator;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.UserFunctionException;
import io.millrace.operator.TimerCallback;

/**
 * Runs a {@link KeyedProcessFunction}: makes each record's key current, then calls the function with a reused
 * context and collector (no allocation per record). Timers fire with their key current and their timestamp on the
 * emitted records. Built on the operator SPI alone (state, keys and the timer service {@value #TIMERS} through
 * {@link OperatorContext}). Task thread only.
 */
public final class KeyedProcessOperator<K, IN, OUT> extends AbstractStreamOperator<OUT>
        implements KeyedInput<IN>, OneInputOperator<IN, OUT>, TimerCallback {
    /** The name of the function's timers in the keyed snapshot. */
    static final String TIMERS = "user-timers";
    private final KeyedProcessFunction<K, IN, OUT> function;
    private boolean opened;
    private KeySelector<Object, Object> keySelector;
    private final CallContext callContext = new CallContext();
    private final TimestampedCollector collector = new TimestampedCollector();
    private boolean closed;

    public KeyedProcessOperator(KeyedProcessFunction<K, IN, OUT> function) {
        this.function = function;
    }

    @Override
    public void open(OperatorContext context, Output<OUT> output) throws Exception {
        super.open(context, output);
        keySelector = context.keySelector(0);
        if (!context.keyed() || keySelector == null) {
            throw new IllegalStateException("operator '" + context.operatorName() + "' runs a KeyedProcessFunction and needs a keyed input");
        }
        callContext.timerService = context.timerService(TIMERS, this);
        function.open(context.runtimeContext());
        opened = true;
    }

    @Override
    public void processRecord(IN value, long timestamp) throws Exception {
        Object key;
        try {
            key = keySelector.getKey(value);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
        try {
            context.setCurrentKey(key);
            callContext.timestamp = timestamp;
            callContext.timeDomain = null;
            collector.timestamp = timestamp;
            function.processElement(value, callContext, collector);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    @Override
    public void processKeyedRecord(Object key, int keyGroup, IN value, long timestamp) throws Exception {
        try {
            context.setCurrentKey(key, keyGroup);
            callContext.timestamp = timestamp;
            callContext.timeDomain = null;
            collector.timestamp = timestamp;
            function.processElement(value, callContext, collector);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        context.fireEventTimeTimers(watermark);
        super.processWatermark(watermark);
    }

    /** The earliest event-time timer: a lower watermark is only noted and passed on (before opening: every one). */
    @Override
    public long watermarkToAct() {
        return opened ? context.nextEventTimeTimer() : Long.MIN_VALUE;
    }

    @Override
    public void advanceProcessingTime(long now) throws Exception {
        context.fireProcessingTimeTimers(now);
    }

    @Override
    public void onTimer(long timestamp, TimeDomain domain) {
        fire(timestamp, domain);
    }

    /** Closes the function once, however often it is called. */
    @Override
    public void close() throws Exception {
        if (!closed) {
            closed = true;
            function.close();
        }
    }

    private void fire(long timestamp, TimeDomain domain) {
        callContext.timestamp = timestamp;
        callContext.timeDomain = domain;
        collector.timestamp = timestamp;
        try {
            function.onTimer(timestamp, callContext, collector);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, "timer " + timestamp + " of key " + context.currentKey(), e);
        }
    }

    /** The context of the record or timer being processed; reused. */
    private final class CallContext implements KeyedProcessFunction.OnTimerContext<K> {
        long timestamp;
        TimeDomain timeDomain;
        TimerService timerService;

        @Override
        public long timestamp() {
            return timestamp;
        }

        @Override
        @SuppressWarnings("unchecked")
        public K currentKey() {
            return (K) context.currentKey();
        }

        @Override
        public TimerService timerService() {
            return timerService;
        }

        @Override
        public <X> void output(OutputTag<X> tag, X value) {
            output.emit(tag, value, timestamp);
        }

        /** EVENT_TIME or PROCESSING_TIME during onTimer; null during processElement. */
        @Override
        public TimeDomain timeDomain() {
            return timeDomain;
        }
    }

    /** Emits with the timestamp of the record or timer being processed; reused. */
    private final class TimestampedCollector implements Collector<OUT> {
        long timestamp;

        @Override
        public void collect(OUT value) {
            output.emit(value, timestamp);
        }
    }
}
