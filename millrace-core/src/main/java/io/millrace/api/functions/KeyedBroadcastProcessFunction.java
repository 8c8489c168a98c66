package io.millrace.api.functions;

import io.millrace.api.OutputTag;
import io.millrace.api.state.BroadcastState;
import io.millrace.api.state.KeyedStateFunction;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ReadOnlyBroadcastState;
import io.millrace.api.state.State;
import io.millrace.api.state.StateDescriptor;
import io.millrace.api.time.TimeDomain;
import io.millrace.api.time.TimerService;

/**
 * The function of a keyed stream connected to a broadcast stream ({@code stream.keyBy(..).connect(rules.broadcast(..))
 * .process(..)}), for example thresholds per machine type applied to the readings of every machine. The keyed side,
 * {@link #processElement} and {@link #onTimer}, has keyed state (through {@link RuntimeContext#state()}, got in
 * {@link #open}) and per-key timers, as a {@link KeyedProcessFunction}, and reads the broadcast state. The broadcast
 * side, {@link #processBroadcastElement}, runs on every subtask for every broadcast record, with no current key; it
 * changes the broadcast state and may visit the keyed state of all keys of its subtask
 * ({@link Context#applyToKeyedState}).
 *
 * <p>The two inputs are not ordered against each other: a data record may be processed before a broadcast record
 * sent earlier. For results that do not depend on that order, give broadcast records the event time from which they
 * apply and let the keyed side wait, with an event-time timer, until the watermark (the lower of both inputs'
 * watermarks) passes a record's time: by then every broadcast record up to that time has arrived.
 *
 * <p>Every method runs on the operator's task thread.
 */
public abstract class KeyedBroadcastProcessFunction<K, IN1, IN2, OUT> implements RichFunction, java.io.Serializable {

    /** A record of the keyed stream, with its key as current key; the broadcast state is read-only here. */
    public abstract void processElement(IN1 value, ReadOnlyContext<K> ctx, Collector<OUT> out) throws Exception;

    /** A record of the broadcast stream, seen by every subtask, with no current key. */
    public abstract void processBroadcastElement(IN2 value, Context<K> ctx, Collector<OUT> out) throws Exception;

    /** A timer of the key {@code ctx.currentKey()} fired; records emitted here carry {@code timestamp}. */
    public void onTimer(long timestamp, OnTimerContext<K> ctx, Collector<OUT> out) throws Exception {}

    /** What both sides see; valid only during the call. */
    public interface BaseContext {
        /** The record's or timer's timestamp ({@code Long.MIN_VALUE} for a record without one). */
        long timestamp();

        /** The operator's watermark: the lower of both inputs' watermarks. */
        long currentWatermark();

        /** The pipeline clock's time in milliseconds. */
        long currentProcessingTime();

        <X> void output(OutputTag<X> tag, X value);
    }

    /** The context of a broadcast record. */
    public interface Context<K> extends BaseContext {
        /**
         * The broadcast state of {@code descriptor}, read and write.
         *
         * @throws IllegalArgumentException when the descriptor was not given to {@code broadcast(..)}
         */
        <BK, BV> BroadcastState<BK, BV> getBroadcastState(MapStateDescriptor<BK, BV> descriptor);

        /**
         * Calls {@code function} once for every key of this subtask that has a value in the keyed state of
         * {@code descriptor}, with that key as current key, so that the function may read, change or clear that
         * key's keyed state (of this and other descriptors). Keys are visited key group by key group, each once; a key
         * whose value expired (time-to-live) but is not yet removed may be visited and reads as absent. Afterwards
         * there is no current key again.
         */
        <S extends State> void applyToKeyedState(StateDescriptor<S> descriptor, KeyedStateFunction<K, S> function) throws Exception;
    }

    /** The context of a keyed record. */
    public interface ReadOnlyContext<K> extends BaseContext {
        /**
         * The broadcast state of {@code descriptor}, read-only.
         *
         * @throws IllegalArgumentException when the descriptor was not given to {@code broadcast(..)}
         */
        <BK, BV> ReadOnlyBroadcastState<BK, BV> getBroadcastState(MapStateDescriptor<BK, BV> descriptor);

        K currentKey();

        /** Timers of the current key. */
        TimerService timerService();
    }

    /** The context of a firing timer. */
    public interface OnTimerContext<K> extends ReadOnlyContext<K> {
        TimeDomain timeDomain();
    }
}
