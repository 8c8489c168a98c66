package io.millrace.api.functions;

import io.millrace.api.OutputTag;
import io.millrace.api.state.BroadcastState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ReadOnlyBroadcastState;

/**
 * The function of a non-keyed stream connected to a broadcast stream ({@code stream.connect(rules.broadcast(..))
 * .process(..)}). Every subtask receives every broadcast record, in the order the broadcasting subtask sent them;
 * {@link #processBroadcastElement} may change the broadcast state, {@link #processElement} only reads it. The two
 * inputs are not ordered against each other. Both methods, and {@link #open}/{@link #close}, run on the operator's
 * task thread.
 */
public abstract class BroadcastProcessFunction<IN1, IN2, OUT> implements RichFunction, java.io.Serializable {

    /** A record of the data stream; the broadcast state is read-only here. */
    public abstract void processElement(IN1 value, ReadOnlyContext ctx, Collector<OUT> out) throws Exception;

    /** A record of the broadcast stream, seen by every subtask; the broadcast state may be changed here. */
    public abstract void processBroadcastElement(IN2 value, Context ctx, Collector<OUT> out) throws Exception;

    /** What both sides see; valid only during the call. */
    public interface BaseContext {
        /** The record's event timestamp ({@code Long.MIN_VALUE} when it has none); also that of emitted records. */
        long timestamp();

        /** The operator's watermark: the lower of both inputs' watermarks. */
        long currentWatermark();

        /** The pipeline clock's time in milliseconds. */
        long currentProcessingTime();

        <X> void output(OutputTag<X> tag, X value);
    }

    /** The context of a broadcast record. */
    public interface Context extends BaseContext {
        /**
         * The broadcast state of {@code descriptor}, read and write.
         *
         * @throws IllegalArgumentException when the descriptor was not given to {@code broadcast(..)}
         */
        <K, V> BroadcastState<K, V> getBroadcastState(MapStateDescriptor<K, V> descriptor);
    }

    /** The context of a data record. */
    public interface ReadOnlyContext extends BaseContext {
        /**
         * The broadcast state of {@code descriptor}, read-only.
         *
         * @throws IllegalArgumentException when the descriptor was not given to {@code broadcast(..)}
         */
        <K, V> ReadOnlyBroadcastState<K, V> getBroadcastState(MapStateDescriptor<K, V> descriptor);
    }
}
