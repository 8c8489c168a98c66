package io.millrace.runtime.operator;

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
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.Triggerable;
import io.millrace.runtime.state.serde.VoidNamespace;

/**
 * Runs a {@link KeyedProcessFunction}: sets each record's key on the keyed state backend, then calls
 * the function with a reused context and collector (no allocation per record). Timers fire with their
 * key current and their timestamp on the emitted records. Task thread only.
 */
public final class KeyedProcessOperator<K, IN, OUT> extends AbstractStreamOperator<OUT>
        implements KeyedInput<IN>, OneInputOperator<IN, OUT>, Triggerable<VoidNamespace> {
    private final KeyedProcessFunction<K, IN, OUT> function;
    private KeyedStateBackend backend;
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
        backend = InternalOperatorContext.backendOf(context);
        keySelector = context.keySelector(0);
        if (backend == null || keySelector == null) {
            throw new IllegalStateException("operator '" + context.operatorName() + "' runs a KeyedProcessFunction and needs a keyed input");
        }
        callContext.timerService = new VoidTimerService(backend.timerService("user-timers", this));
        UserFunctions.open(function, context);
    }

    @Override
    public void processRecord(IN value, long timestamp) throws Exception {
        Object key;
        try {
            key = keySelector.getKey(value);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
        processKeyedRecord(key, io.millrace.runtime.state.KeyGroups.keyGroupFor(key, context.maxParallelism()), value, timestamp);
    }

    @Override
    public void processKeyedRecord(Object key, int keyGroup, IN value, long timestamp) throws Exception {
        try {
            backend.setCurrentKey(key, keyGroup);
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
        backend.advanceWatermark(watermark);
        super.processWatermark(watermark);
    }

    /** The earliest event-time timer: a lower watermark is only noted and passed on (before opening: every one). */
    @Override
    public long watermarkToAct() {
        return backend == null ? Long.MIN_VALUE : backend.nextEventTimerTime();
    }

    @Override
    public void advanceProcessingTime(long now) throws Exception {
        backend.advanceProcessingTime(now);
    }

    @Override
    public void onEventTime(long timestamp, VoidNamespace namespace) {
        fire(timestamp, TimeDomain.EVENT_TIME);
    }

    @Override
    public void onProcessingTime(long timestamp, VoidNamespace namespace) {
        fire(timestamp, TimeDomain.PROCESSING_TIME);
    }

    /** Closes the function once, however often it is called. */
    @Override
    public void close() throws Exception {
        if (!closed) {
            closed = true;
            UserFunctions.close(function);
        }
    }

    private void fire(long timestamp, TimeDomain domain) {
        callContext.timestamp = timestamp;
        callContext.timeDomain = domain;
        collector.timestamp = timestamp;
        try {
            function.onTimer(timestamp, callContext, collector);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, "timer " + timestamp + " of key " + backend.currentKey(), e);
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
            return (K) backend.currentKey();
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
