package io.millrace.cep;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.SortedMapState;
import io.millrace.api.state.SortedMapStateDescriptor;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.TimeDomain;
import io.millrace.api.time.TimerService;
import io.millrace.cep.SharedBufferState.BufferedEvent;
import io.millrace.cep.SharedBufferState.Runs;
import io.millrace.cep.SharedBufferState.Step;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.KeyedInput;
import io.millrace.operator.OneInputOperator;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.TimerCallback;
import io.millrace.operator.UserFunctionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Matches a pattern per key. In event time, records wait in keyed sorted-map state ({@value #PENDING}, by
 * timestamp) until the watermark passes them, and are then fed to the {@link NfaEngine} in time order (records of
 * equal timestamps in arrival order) from an event-time timer at the key's earliest waiting timestamp; records at or behind the
 * watermark go to the late side output if one is set, else they are counted as dropped. A timer at the end of the
 * {@code within} of the key's oldest partial match times it out even when no later record comes, and is then set
 * again for the next oldest. In processing time records are
 * matched on arrival, at the pipeline clock's time. Everything is keyed state and keyed timers, so it is
 * checkpointed, restored and rescaled with the key. Built on the operator SPI alone. Task thread only.
 */
final class CepOperator<E, OUT> extends AbstractStreamOperator<OUT> implements OneInputOperator<E, OUT>, KeyedInput<E>, TimerCallback {
    static final String PENDING = "cep-pending";
    static final String EVENTS = "cep-events";
    static final String STEPS = "cep-steps";
    static final String RUNS = "cep-runs";
    static final String TIMERS = "cep-timers";

    private final Nfa<E> nfa;
    private final PatternProcessFunction<E, OUT> function;
    private final boolean processingTime;
    private final OutputTag<E> lateTag;
    private KeySelector<Object, Object> keySelector;
    private SortedMapState<Long, List<E>> pending;
    private NfaEngine<E> engine;
    private TimerService timers;
    private boolean opened;
    private boolean closed;
    /** The watermark whose timers are firing (event time): every record of a key up to it is released by one timer. */
    private long firing = Long.MIN_VALUE;
    private final CallContext call = new CallContext();
    private final Emitter emitter = new Emitter();

    CepOperator(Nfa<E> nfa, PatternProcessFunction<E, OUT> function, boolean processingTime, OutputTag<E> lateTag) {
        this.nfa = nfa;
        this.function = function;
        this.processingTime = processingTime;
        this.lateTag = lateTag;
    }

    @Override
    public void open(OperatorContext context, Output<OUT> output) throws Exception {
        super.open(context, output);
        keySelector = context.keySelector(0);
        if (!context.keyed() || keySelector == null) {
            throw new IllegalStateException("operator '" + context.operatorName() + "' matches a pattern per key: apply it to a keyed stream (keyBy)");
        }
        pending = context.state().getSortedMapState(new SortedMapStateDescriptor<>(PENDING, Long.class));
        engine = new NfaEngine<>(nfa,
                context.state().getMapState(new MapStateDescriptor<Long, BufferedEvent<E>>(EVENTS)),
                context.state().getMapState(new MapStateDescriptor<Long, Step>(STEPS)),
                context.state().getState(new ValueStateDescriptor<Runs>(RUNS)));
        timers = context.timerService(TIMERS, this);
        function.open(context.runtimeContext());
        opened = true;
    }

    @Override
    public void processRecord(E value, long timestamp) throws Exception {
        Object key;
        try {
            key = keySelector.getKey(value);
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
        context.setCurrentKey(key);
        handle(value, timestamp);
    }

    @Override
    public void processKeyedRecord(Object key, int keyGroup, E value, long timestamp) throws Exception {
        context.setCurrentKey(key, keyGroup);
        handle(value, timestamp);
    }

    private void handle(E value, long timestamp) {
        try {
            if (processingTime) {
                if (!nfa.relevant(value)) {
                    return;
                }
                long now = context.clock().millis();
                if (engine.process(value, now, emitter) && nfa.within >= 0) {
                    timers.registerProcessingTimeTimer(saturatedAdd(now, nfa.within));   // the key's first partial match
                }
                return;
            }
            if (timestamp == Long.MIN_VALUE) {
                throw new IllegalStateException("record " + value + " has no event timestamp: matching in event time needs timestamps"
                        + " (assignTimestampsAndWatermarks), or use inProcessingTime()");
            }
            if (timestamp <= currentWatermark) {
                if (lateTag != null) {
                    output.emit(lateTag, value, timestamp);
                    metrics.lateRecordsDiverted++;
                } else {
                    metrics.lateRecordsDropped++;
                }
                return;
            }
            if (!nfa.relevant(value)) {
                return;                                       // no condition accepts it: it can neither start nor change a match
            }
            Map.Entry<Long, List<E>> first = pending.firstEntry();
            List<E> at = first == null ? null : first.getKey() == timestamp ? first.getValue() : pending.get(timestamp);
            List<E> next = new ArrayList<>(at == null ? 1 : at.size() + 1);
            if (at != null) {
                next.addAll(at);
            }
            next.add(value);
            pending.put(timestamp, next);
            if (first == null || timestamp < first.getKey()) {
                timers.registerEventTimeTimer(timestamp);   // the key's earliest waiting record: a later one is released with it
            }
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, value, e);
        }
    }

    /**
     * Event time: a timer of the current key fired for the watermark {@link #firing}: its records up to that watermark
     * are matched in time order (equal times in arrival order), each after the partial matches whose within ended by
     * its time have timed out; then those whose within ends by the watermark time out, and a timer is set for the
     * earliest record still waiting. Processing time: the partial matches whose within ended by {@code time} time out.
     */
    @Override
    public void onTimer(long time, TimeDomain domain) {
        try {
            if (domain == TimeDomain.PROCESSING_TIME) {
                engine.expire(time, emitter);
                long earliest = engine.earliestStart();
                if (earliest != Long.MAX_VALUE) {
                    timers.registerProcessingTimeTimer(saturatedAdd(earliest, nfa.within));
                }
                return;
            }
            long upTo = Math.max(time, firing);
            for (Map.Entry<Long, List<E>> at : pending.headMap(saturatedAdd(upTo, 1))) {
                long t = at.getKey();
                pending.remove(t);
                for (E e : at.getValue()) {
                    engine.process(e, t, emitter);
                }
            }
            if (nfa.within >= 0) {
                engine.expire(saturatedAdd(upTo, 1), emitter);
                long earliest = engine.earliestStart();
                if (earliest != Long.MAX_VALUE) {
                    timers.registerEventTimeTimer(saturatedAdd(earliest, nfa.within - 1));   // one per key: the next to time out
                }
            }
            Map.Entry<Long, List<E>> next = pending.firstEntry();
            if (next != null) {
                timers.registerEventTimeTimer(next.getKey());
            }
        } catch (Exception | LinkageError e) {
            throw UserFunctionException.of(context, "timer " + time + " of key " + context.currentKey(), e);
        }
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        if (!processingTime) {
            firing = watermark;
            context.fireEventTimeTimers(watermark);
        }
        super.processWatermark(watermark);
    }

    /** The earliest timer: below it a watermark changes only the lateness threshold. */
    @Override
    public long watermarkToAct() {
        return opened ? context.nextEventTimeTimer() : Long.MIN_VALUE;
    }

    @Override
    public void advanceProcessingTime(long now) throws Exception {
        context.fireProcessingTimeTimers(now);
    }

    @Override
    public void close() throws Exception {
        if (!closed) {
            closed = true;
            function.close();
        }
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }

    /** Hands matches and timeouts to the user function. */
    private final class Emitter implements NfaEngine.Listener<E> {
        @Override
        public void onMatch(Map<String, List<E>> match, long timestamp) throws Exception {
            call.timestamp = timestamp;
            collector.timestamp = timestamp;
            function.processMatch(match, call, collector);
        }

        @Override
        public void onTimeout(Map<String, List<E>> partialMatch, long timestamp) throws Exception {
            if (function instanceof TimedOutPartialMatchHandler<?> handler) {
                call.timestamp = timestamp;
                @SuppressWarnings("unchecked")
                TimedOutPartialMatchHandler<E> h = (TimedOutPartialMatchHandler<E>) handler;
                h.processTimedOutMatch(partialMatch, call);
            }
        }

        final TimestampedCollector collector = new TimestampedCollector();
    }

    private final class CallContext implements PatternProcessFunction.Context {
        long timestamp;

        @Override
        public long timestamp() {
            return timestamp;
        }

        @Override
        public Object currentKey() {
            return context.currentKey();
        }

        @Override
        public <X> void output(OutputTag<X> tag, X value) {
            output.emit(tag, value, timestamp);
        }
    }

    private final class TimestampedCollector implements Collector<OUT> {
        long timestamp;

        @Override
        public void collect(OUT value) {
            output.emit(value, timestamp);
        }
    }
}
