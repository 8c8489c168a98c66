package io.millrace.runtime.process;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.CoProcessFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.time.TimeDomain;
import io.millrace.api.time.TimerService;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.KeyedTwoInput;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.TwoInputOperator;
import io.millrace.operator.UserFunctionException;
import io.millrace.operator.TimerCallback;

/**
 * Runs a {@link CoProcessFunction}. Keyed when the context has a key selector for input 0: each record
 * then makes its key current, and the two inputs share keyed state and timers (the timer service
 * {@value KeyedProcessOperator#TIMERS}). Built on the operator SPI alone. An input without a
 * selector (a broadcast input of a keyed operator) runs with no current key, so state and timers refuse
 * access during its records. Non-keyed, there are no timers. Task thread only.
 */
public final class CoProcessOperator<A, B, OUT> extends AbstractStreamOperator<OUT>
        implements TwoInputOperator<A, B, OUT>, KeyedTwoInput<A, B>, TimerCallback {
    private final CoProcessFunction<A, B, OUT> function;
    /** Whether the inputs are keyed (input 0 has a key selector); set in open. */
    private boolean keyed;
    private boolean opened;
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
            if (!context.keyed()) {
                throw new IllegalStateException("operator '" + context.operatorName() + "' has keyed inputs but no keyed state");
            }
            keyed = true;
            keySelector2 = context.keySelector(1);
            timerService = context.timerService(KeyedProcessOperator.TIMERS, this);
        }
        function.open(context.runtimeContext());
        opened = true;
    }

    @Override
    public void processRecord1(A value, long timestamp) throws Exception {
        try {
            if (keyed) {
                context.setCurrentKey(keySelector1.getKey(value));
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
            if (keyed) {
                context.setCurrentKey(keySelector2 == null ? null : keySelector2.getKey(value));
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
        if (!keyed) {
            processRecord1(value, timestamp);
            return;
        }
        try {
            context.setCurrentKey(key, keyGroup);
            prepare(timestamp);
            function.processElement1(value, callContext, collector);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    /** As {@link #processRecord2}, with the key and key group the hash exchange computed. */
    @Override
    public void processKeyedRecord2(Object key, int keyGroup, B value, long timestamp) throws Exception {
        if (!keyed || keySelector2 == null) {
            processRecord2(value, timestamp);
            return;
        }
        try {
            context.setCurrentKey(key, keyGroup);
            prepare(timestamp);
            function.processElement2(value, callContext, collector);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        if (keyed) {
            context.fireEventTimeTimers(watermark);
        }
        super.processWatermark(watermark);
    }

    /**
     * Keyed: the earliest event-time timer, since a lower watermark is only noted and passed on; unkeyed (no
     * timers): only the final watermark; every watermark before opening.
     */
    @Override
    public long watermarkToAct() {
        if (!opened) {
            return Long.MIN_VALUE;
        }
        return keyed ? context.nextEventTimeTimer() : Long.MAX_VALUE;
    }

    @Override
    public void advanceProcessingTime(long now) throws Exception {
        if (keyed) {
            context.fireProcessingTimeTimers(now);
        }
    }

    @Override
    public void onTimer(long timestamp, TimeDomain domain) {
        fire(timestamp);
    }

    /** Closes the function once, however often it is called. */
    @Override
    public void close() throws Exception {
        if (!closed) {
            closed = true;
            function.close();
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
            throw UserFunctionException.of(context, "timer " + timestamp + " of key " + context.currentKey(), e);
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
            return keyed ? context.currentKey() : null;
        }

        @Override
        public TimerService timerService() {
            if (!keyed) {
                throw new IllegalStateException("operator '" + context.operatorName()
                        + "': timers need keyed connected streams (keyBy on both inputs)");
            }
            if (context.currentKey() == null) {
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
