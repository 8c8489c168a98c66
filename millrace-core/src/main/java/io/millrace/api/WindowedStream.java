package io.millrace.api;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.functions.ReduceFunction;
import io.millrace.api.time.TimeDomain;
import io.millrace.api.window.CountWindows;
import io.millrace.api.window.GlobalWindows;
import io.millrace.api.window.Trigger;
import io.millrace.api.window.Window;
import io.millrace.api.window.WindowAssigner;
import io.millrace.api.window.WindowSpec;
import java.time.Duration;
import java.util.Objects;

/**
 * A keyed stream cut into windows; finish it with {@code reduce}, {@code aggregate} or {@code process}.
 * Immutable: each setting returns a new instance. Results carry the timestamp {@code window.maxTimestamp()}.
 *
 * <p>Sliding windows are computed from slices shared by overlapping windows, so functions must not modify
 * their inputs: a reduce function must not change its arguments, an aggregate function's {@code merge} may
 * reuse its first argument but never its second, and {@code getResult} must not change the accumulator.
 *
 * @param <T> record type
 * @param <K> key type
 * @param <W> window type seen by window functions
 */
public final class WindowedStream<T, K, W extends Window> {
    private final KeyedStream<K, T> input;
    private final WindowAssigner<W> assigner;
    private final Trigger<?, ?> trigger;
    private final long allowedLateness;
    private final OutputTag<T> lateDataTag;

    WindowedStream(KeyedStream<K, T> input, WindowAssigner<W> assigner) {
        this(input, assigner, null, 0, null);
    }

    private WindowedStream(KeyedStream<K, T> input, WindowAssigner<W> assigner, Trigger<?, ?> trigger, long allowedLateness, OutputTag<T> lateDataTag) {
        this.input = input;
        this.assigner = assigner;
        this.trigger = trigger;
        this.allowedLateness = allowedLateness;
        this.lateDataTag = lateDataTag;
    }

    /**
     * Replaces the assigner's default trigger. On sliding windows a trigger must not purge: the slices of a
     * sliding window are shared with its neighbours.
     */
    public WindowedStream<T, K, W> trigger(Trigger<? super T, ? super W> trigger) {
        Objects.requireNonNull(trigger, "trigger");
        if (assigner instanceof CountWindows) {
            throw new IllegalStateException("count windows fire by count; use window(Windows.global()).trigger(...) for a custom trigger");
        }
        return new WindowedStream<>(input, assigner, trigger, allowedLateness, lateDataTag);
    }

    /**
     * Keeps each window's state until the watermark reaches {@code maxTimestamp + lateness}; each late record in
     * that time fires the window again with the updated result. Event-time windows only.
     */
    public WindowedStream<T, K, W> allowedLateness(Duration lateness) {
        long ms = Objects.requireNonNull(lateness, "lateness").toMillis();
        if (ms < 0) {
            throw new IllegalArgumentException("allowed lateness must not be negative, was " + lateness);
        }
        if (assigner.timeDomain() != TimeDomain.EVENT_TIME || assigner instanceof GlobalWindows || assigner instanceof CountWindows) {
            throw new IllegalStateException("allowed lateness applies to event-time windows only, not to " + assigner);
        }
        return new WindowedStream<>(input, assigner, trigger, ms, lateDataTag);
    }

    /** Records too late for every window they belong to go to this side output instead of being dropped. */
    public WindowedStream<T, K, W> sideOutputLateData(OutputTag<T> tag) {
        return new WindowedStream<>(input, assigner, trigger, allowedLateness, Objects.requireNonNull(tag, "tag"));
    }

    /** Emits, per window firing, the reduction of its records. */
    public DataStream<T> reduce(ReduceFunction<T> reducer) {
        return build(Objects.requireNonNull(reducer, "reducer"), null, null);
    }

    /** Reduces incrementally, then gives the single reduced value to {@code function} with the window's metadata. */
    public <R> DataStream<R> reduce(ReduceFunction<T> reducer, ProcessWindowFunction<T, R, K, W> function) {
        return build(Objects.requireNonNull(reducer, "reducer"), null, Objects.requireNonNull(function, "function"));
    }

    /** Emits, per window firing, the aggregate of its records. */
    public <ACC, V> DataStream<V> aggregate(AggregateFunction<T, ACC, V> aggregator) {
        return build(null, Objects.requireNonNull(aggregator, "aggregator"), null);
    }

    /** Aggregates incrementally, then gives the single result to {@code function} with the window's metadata. */
    public <ACC, V, R> DataStream<R> aggregate(AggregateFunction<T, ACC, V> aggregator, ProcessWindowFunction<V, R, K, W> function) {
        return build(null, Objects.requireNonNull(aggregator, "aggregator"), Objects.requireNonNull(function, "function"));
    }

    /** Keeps every record of the window and gives them all to {@code function} when it fires. */
    public <R> DataStream<R> process(ProcessWindowFunction<T, R, K, W> function) {
        return build(null, null, Objects.requireNonNull(function, "function"));
    }

    private <R> DataStream<R> build(ReduceFunction<T> reducer, AggregateFunction<T, ?, ?> aggregator, ProcessWindowFunction<?, R, K, W> function) {
        return input.transform(new WindowSpec(assigner, trigger, allowedLateness, lateDataTag, reducer, aggregator, function));
    }
}
