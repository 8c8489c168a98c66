package io.millrace.runtime.operator;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.CoProcessFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.time.TimerService;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.KeyedTwoInput;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.TwoInputOperator;
import io.millrace.operator.UserFunctionException;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.Triggerable;
import io.millrace.runtime.state.serde.VoidNamespace;

/**
 * Runs a {@link CoProcessFunction}. Keyed when the context has a key selector for input 0: each record
 * then sets its key on the backend, and the two inputs share keyed state and timers. An input without a
 * selector (a broadcast input of a keyed operator) runs with no current key, so state and timers refuse
 * access during its records. Non-keyed, there are no timers. Task thread only.
 */
public final class CoProcessOperator<A, B, OUT> extends AbstractStreamOperator<OUT>
        implements TwoInputOperator<A, B, OUT>, KeyedTwoInput<A, B>, Triggerable<VoidNamespace> {
    private final CoProcessFunction<A, B, OUT> function;
    private KeyedStateBackend backend;
    private KeySelector<Object, Object> keySelector1;
    private KeySelector<Object, Object> keySelector2;
    private TimerService timerService;
    private final CallContext callContext = new CallContext();
    private final TimestampedCollector collector = new TimestampedCollector();
    private boolean closed;

    public CoProcessOperator(CoProcessFunction<A, B, OUT> function) {
        this.function = function;
    }

    @Override
    public void open(OperatorContext context, Output<OUT> output) throws Exception {
        super.open(context, output);
        keySelector1 = context.keySelector(0);
        if (keySelector1 != null) {
            backend = InternalOperatorContext.backendOf(context);
            if (backend == null) {
                throw new IllegalStateException("operator '" + context.operatorName() + "' has keyed inputs but no keyed state backend");
            }
            keySelector2 = context.keySelector(1);
            timerService = new VoidTimerService(backend.timerService("user-timers", this));
        }
        UserFunctions.open(function, context);
    }

    @Override
    public void processRecord1(A value, long timestamp) throws Exception {
        try {
            if (backend != null) {
                backend.setCurrentKey(keySelector1.getKey(value));
            }
            prepare(timestamp);
            function.processElement1(value, callContext, collector);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    @Override
    public void processRecord2(B value, long timestamp) throws Exception {
        try {
            if (backend != null) {
                backend.setCurrentKey(keySelector2 == null ? null : keySelector2.getKey(value));
            }
            prepare(timestamp);
            function.processElement2(value, callContext, collector);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    /** As {@link #processRecord1}, with the key and key group the hash exchange computed. */
    @Override
    public void processKeyedRecord1(Object key, int keyGroup, A value, long timestamp) throws Exception {
        if (backend == null) {
            processRecord1(value, timestamp);
            return;
        }
        try {
            backend.setCurrentKey(key, keyGroup);
            prepare(timestamp);
            function.processElement1(value, callContext, collector);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    /** As {@link #processRecord2}, with the key and key group the hash exchange computed. */
    @Override
    public void processKeyedRecord2(Object key, int keyGroup, B value, long timestamp) throws Exception {
        if (backend == null || keySelector2 == null) {
            processRecord2(value, timestamp);
            return;
        }
        try {
            backend.setCurrentKey(key, keyGroup);
            prepare(timestamp);
            function.processElement2(value, callContext, collector);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        if (backend != null) {
            backend.advanceWatermark(watermark);
        }
        super.processWatermark(watermark);
    }

    /**
     * Keyed: the earliest event-time timer, since a lower watermark is only noted and passed on; unkeyed (no
     * timers): only the final watermark; every watermark before opening.
     */
    @Override
    public long watermarkToAct() {
        if (backend != null) {
            return backend.nextEventTimerTime();
        }
        return context == null ? Long.MIN_VALUE : Long.MAX_VALUE;
    }

    @Override
    public void advanceProcessingTime(long now) throws Exception {
        if (backend != null) {
            backend.advanceProcessingTime(now);
        }
    }

    @Override
    public void onEventTime(long timestamp, VoidNamespace namespace) {
        fire(timestamp);
    }

    @Override
    public void onProcessingTime(long timestamp, VoidNamespace namespace) {
        fire(timestamp);
    }

    /** Closes the function once, however often it is called. */
    @Override
    public void close() throws Exception {
        if (!closed) {
            closed = true;
            UserFunctions.close(function);
        }
    }

    private void prepare(long timestamp) {
        callContext.timestamp = timestamp;
        collector.timestamp = timestamp;
    }

    private void fire(long timestamp) {
        prepare(timestamp);
        try {
            function.onTimer(timestamp, callContext, collector);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, "timer " + timestamp + " of key " + backend.currentKey(), e);
        }
    }

    /** The context of the record or timer being processed; reused. */
    private final class CallContext implements CoProcessFunction.Context {
        long timestamp;

        @Override
        public long timestamp() {
            return timestamp;
        }

        @Override
        public Object currentKey() {
            return backend == null ? null : backend.currentKey();
        }

        @Override
        public TimerService timerService() {
            if (backend == null) {
                throw new IllegalStateException("operator '" + context.operatorName()
                        + "': timers need keyed connected streams (keyBy on both inputs)");
            }
            if (backend.currentKey() == null) {
                throw new IllegalStateException("operator '" + context.operatorName()
                        + "': timers are not available while processing a record of the broadcast (non-keyed) input");
            }
            return timerService;
        }

        @Override
        public long currentWatermark() {
            return timerService != null ? timerService.currentWatermark() : currentWatermark;
        }

        @Override
        public <X> void output(OutputTag<X> tag, X value) {
            output.emit(tag, value, timestamp);
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
