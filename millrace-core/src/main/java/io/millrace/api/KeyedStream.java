package io.millrace.api;

import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.functions.ReduceFunction;
import io.millrace.api.plan.Partitioning;
import io.millrace.api.plan.Specs;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.window.CountWindows;
import io.millrace.api.window.GlobalWindow;
import io.millrace.api.window.Window;
import io.millrace.api.window.WindowAssigner;
import java.util.List;
import java.util.Objects;

/** A stream partitioned by key; operators on it have keyed state and per-key timers. */
public class KeyedStream<K, T> extends DataStream<T> {

    KeyedStream(Pipeline pipeline, List<Producer> producers, KeySelector<T, K> key) {
        super(pipeline, producers, Partitioning.HASH, key);
        KeyTypes.check(key);
    }

    @SuppressWarnings("unchecked")
    public KeySelector<T, K> keySelector() {
        return (KeySelector<T, K>) keySelector;
    }

    public <R> DataStream<R> process(KeyedProcessFunction<K, T, R> function) {
        return transform(new Specs.KeyedProcessSpec<>(Objects.requireNonNull(function, "function")));
    }

    /** A running reduce per key: emits the new reduced value for every record. */
    public DataStream<T> reduce(ReduceFunction<T> reducer) {
        Objects.requireNonNull(reducer, "reducer");
        return process(new RunningReduce<>(reducer)).name("reduce");
    }

    /**
     * Starts an event-time interval join with {@code other}, keyed by keys of the same type:
     * {@code intervalJoin(other).between(lower, upper).process(function)} pairs each row of this stream at {@code t}
     * with the rows of {@code other} of the same key at {@code t + lower .. t + upper}. See {@link IntervalJoined}.
     */
    public <R> IntervalJoin<T, R, K> intervalJoin(KeyedStream<K, R> other) {
        Objects.requireNonNull(other, "other");
        if (other.pipeline != pipeline) {
            throw new IllegalArgumentException("cannot join streams of different pipelines");
        }
        return new IntervalJoin<>(this, other);
    }

    /** Cuts each key's records into windows, e.g. {@code window(Windows.tumbling(Duration.ofMinutes(1)))}. */
    public <W extends Window> WindowedStream<T, K, W> window(WindowAssigner<W> assigner) {
        return new WindowedStream<>(this, Objects.requireNonNull(assigner, "assigner"));
    }

    /** Tumbling count windows: one result per {@code size} records of a key. */
    public WindowedStream<T, K, GlobalWindow> countWindow(long size) {
        return window(CountWindows.of(size, size));
    }

    /** Sliding count windows: every {@code slide} records of a key, a result over its last {@code size} records. */
    public WindowedStream<T, K, GlobalWindow> countWindow(long size, long slide) {
        return window(CountWindows.of(size, slide));
    }

    private static final class RunningReduce<K, T> extends KeyedProcessFunction<K, T, T> {
        private final ReduceFunction<T> reducer;
        private transient ValueState<T> current;

        RunningReduce(ReduceFunction<T> reducer) {
            this.reducer = reducer;
        }

        @Override
        public void open(RuntimeContext context) {
            current = context.state().getState(new ValueStateDescriptor<>("reduce"));
        }

        @Override
        public void processElement(T value, Context<K> ctx, Collector<T> out) throws Exception {
            T prev = current.value();
            T next = prev == null ? value : reducer.reduce(prev, value);
            current.update(next);
            out.collect(next);
        }
    }
}
