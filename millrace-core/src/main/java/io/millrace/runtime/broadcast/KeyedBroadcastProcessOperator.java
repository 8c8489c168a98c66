package io.millrace.runtime.broadcast;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.functions.KeyedBroadcastProcessFunction;
import io.millrace.api.state.BroadcastState;
import io.millrace.api.state.KeyedStateFunction;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ReadOnlyBroadcastState;
import io.millrace.api.state.State;
import io.millrace.api.state.StateDescriptor;
import io.millrace.api.time.TimeDomain;
import io.millrace.api.time.TimerService;
import io.millrace.operator.KeyedTwoInput;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.UserFunctionException;
import io.millrace.runtime.operator.InternalOperatorContext;
import io.millrace.runtime.operator.UserFunctions;
import io.millrace.runtime.operator.VoidTimerService;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.Triggerable;
import io.millrace.runtime.state.serde.VoidNamespace;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs a {@link KeyedBroadcastProcessFunction}. Input 0 is keyed: each record sets its key on the keyed state backend,
 * and the function has keyed state and per-key timers, and reads the broadcast states. Input 1 is the broadcast
 * stream: its records run with no current key (keyed state and timers refuse access) and may change the broadcast
 * states, and visit every key's state of this subtask ({@code applyToKeyedState}). Timers fire on the watermark, the
 * lower of both inputs' watermarks, or on processing time. Task thread only.
 */
public final class KeyedBroadcastProcessOperator<K, A, B, OUT> extends BroadcastOperatorBase<A, B, OUT>
        implements KeyedTwoInput<A, B>, Triggerable<VoidNamespace> {
    private final KeyedBroadcastProcessFunction<K, A, B, OUT> function;
    private KeyedStateBackend backend;
    private KeySelector<Object, Object> keySelector;
    private final KeyedContext keyedContext = new KeyedContext();
    private final BroadcastContext broadcastContext = new BroadcastContext();
    private boolean closed;

    public KeyedBroadcastProcessOperator(KeyedBroadcastProcessFunction<K, A, B, OUT> function, List<MapStateDescriptor<?, ?>> descriptors) {
        super(descriptors);
        this.function = function;
    }

    @Override
    public void open(OperatorContext context, Output<OUT> output) throws Exception {
        super.open(context, output);
        backend = InternalOperatorContext.backendOf(context);
        keySelector = context.keySelector(0);
        if (backend == null || keySelector == null) {
            throw new IllegalStateException("operator '" + context.operatorName()
                    + "' runs a KeyedBroadcastProcessFunction and needs a keyed first input (keyBy before connect)");
        }
        keyedContext.timers = new VoidTimerService(backend.timerService("user-timers", this));
        UserFunctions.open(function, context);
    }

    @Override
    public void processRecord1(A value, long recordTimestamp) throws Exception {
        Object key;
        try {
            key = keySelector.getKey(value);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
        processKeyedRecord1(key, KeyGroups.keyGroupFor(key, context.maxParallelism()), value, recordTimestamp);
    }

    @Override
    public void processKeyedRecord1(Object key, int keyGroup, A value, long recordTimestamp) throws Exception {
        try {
            backend.setCurrentKey(key, keyGroup);
            prepare(recordTimestamp);
            keyedContext.timeDomain = null;
            function.processElement(value, keyedContext, collector);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    @Override
    public void processRecord2(B value, long recordTimestamp) throws Exception {
        try {
            backend.setCurrentKey(null);
            prepare(recordTimestamp);
            function.processBroadcastElement(value, broadcastContext, collector);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        } finally {
            backend.setCurrentKey(null);
        }
    }

    /** The broadcast input is never hash-partitioned; a keyed batch on it is processed like any other record. */
    @Override
    public void processKeyedRecord2(Object key, int keyGroup, B value, long recordTimestamp) throws Exception {
        processRecord2(value, recordTimestamp);
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
    public void onEventTime(long time, VoidNamespace namespace) {
        fire(time, TimeDomain.EVENT_TIME);
    }

    @Override
    public void onProcessingTime(long time, VoidNamespace namespace) {
        fire(time, TimeDomain.PROCESSING_TIME);
    }

    /** Closes the function once, however often it is called. */
    @Override
    public void close() throws Exception {
        if (!closed) {
            closed = true;
            UserFunctions.close(function);
        }
    }

    private void fire(long time, TimeDomain domain) {
        prepare(time);
        keyedContext.timeDomain = domain;
        try {
            function.onTimer(time, keyedContext, collector);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, "timer " + time + " of key " + backend.currentKey(), e);
        }
    }

    /** The keyed state of {@code descriptor}, as the function gets it from its runtime context. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private <S extends State> S keyedState(StateDescriptor<S> d) {
        io.millrace.api.state.KeyedStateStore store = backend.stateStore();
        Object s = switch (d.kind()) {
            case VALUE -> store.getState((io.millrace.api.state.ValueStateDescriptor) d);
            case LIST -> store.getListState((io.millrace.api.state.ListStateDescriptor) d);
            case MAP -> store.getMapState((MapStateDescriptor) d);
            case SORTED_MAP -> store.getSortedMapState((io.millrace.api.state.SortedMapStateDescriptor) d);
            case REDUCING -> store.getReducingState((io.millrace.api.state.ReducingStateDescriptor) d);
            case AGGREGATING -> store.getAggregatingState((io.millrace.api.state.AggregatingStateDescriptor) d);
        };
        return (S) s;
    }

    /** Visits the keys with a value in {@code d}'s state, group by group; the keys of a group are listed before any is visited. */
    @SuppressWarnings("unchecked")
    private <S extends State> void applyToKeyedState(StateDescriptor<S> d, KeyedStateFunction<K, S> visit) throws Exception {
        S state = keyedState(d);
        KeyGroupRange range = backend.keyGroupRange();
        Set<Object> keys = new LinkedHashSet<>();
        try {
            for (int group = range.start(); group <= range.end(); group++) {
                keys.clear();
                backend.forEachEntry(d.name(), group, (key, value) -> keys.add(key));
                for (Object key : keys) {
                    backend.setCurrentKey(key, group);
                    visit.process((K) key, state);
                }
            }
        } finally {
            backend.setCurrentKey(null);
        }
    }

    private abstract class Base implements KeyedBroadcastProcessFunction.BaseContext {
        @Override
        public long timestamp() {
            return timestamp;
        }

        @Override
        public long currentWatermark() {
            return currentWatermark;
        }

        @Override
        public long currentProcessingTime() {
            return processingTime();
        }

        @Override
        public <X> void output(OutputTag<X> tag, X value) {
            output.emit(tag, value, timestamp);
        }
    }

    /** The context of keyed records and timers; reused. */
    private final class KeyedContext extends Base implements KeyedBroadcastProcessFunction.OnTimerContext<K> {
        TimerService timers;
        TimeDomain timeDomain;

        @Override
        public <BK, BV> ReadOnlyBroadcastState<BK, BV> getBroadcastState(MapStateDescriptor<BK, BV> descriptor) {
            return states.readOnly(descriptor);
        }

        @Override
        @SuppressWarnings("unchecked")
        public K currentKey() {
            return (K) backend.currentKey();
        }

        @Override
        public TimerService timerService() {
            return timers;
        }

        /** EVENT_TIME or PROCESSING_TIME during onTimer; null during processElement. */
        @Override
        public TimeDomain timeDomain() {
            return timeDomain;
        }
    }

    /** The context of broadcast records; reused. */
    private final class BroadcastContext extends Base implements KeyedBroadcastProcessFunction.Context<K> {
        @Override
        public <BK, BV> BroadcastState<BK, BV> getBroadcastState(MapStateDescriptor<BK, BV> descriptor) {
            return states.writable(descriptor);
        }

        @Override
        public <S extends State> void applyToKeyedState(StateDescriptor<S> descriptor, KeyedStateFunction<K, S> visit) throws Exception {
            KeyedBroadcastProcessOperator.this.applyToKeyedState(descriptor, visit);
        }
    }
}
