package io.millrace.api;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.functions.ProcessAllWindowFunction;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.functions.ReduceFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.window.Trigger;
import io.millrace.api.window.Window;
import java.time.Duration;
import java.util.Objects;

/**
 * A whole, non-keyed stream cut into windows ({@link DataStream#windowAll}); finish it with {@code reduce},
 * {@code aggregate} or {@code process}. Every window is evaluated by one subtask, so the operator's parallelism
 * is 1 and cannot be changed. A {@code reduce} or {@code aggregate} over event-time tumbling or sliding windows
 * is folded in two phases: each producing subtask folds its records per slice and sends one partial per slice,
 * and the single window subtask merges those (see docs/windows.md, "Local aggregation"); the one subtask then
 * handles a few records per slice instead of the whole stream. Other windows send every record to it.
 *
 * <p>Immutable: each setting returns a new instance. Results carry the timestamp {@code window.maxTimestamp()}.
 * The rules of {@link WindowedStream} about functions not modifying their inputs apply.
 *
 * @param <T> record type
 * @param <W> window type seen by window functions
 */
public final class AllWindowedStream<T, W extends Window> {
    private final WindowedStream<T, Long, W> windows;

    AllWindowedStream(WindowedStream<T, Long, W> windows) {
        this.windows = windows;
    }

    /** Replaces the assigner's default trigger, as {@link WindowedStream#trigger} does. */
    public AllWindowedStream<T, W> trigger(Trigger<? super T, ? super W> trigger) {
        return new AllWindowedStream<>(windows.trigger(trigger));
    }

    /** Keeps each window's state for {@code lateness} after its end, as {@link WindowedStream#allowedLateness} does. */
    public AllWindowedStream<T, W> allowedLateness(Duration lateness) {
        return new AllWindowedStream<>(windows.allowedLateness(lateness));
    }

    /** Records too late for every window they belong to go to this side output instead of being dropped. */
    public AllWindowedStream<T, W> sideOutputLateData(OutputTag<T> tag) {
        return new AllWindowedStream<>(windows.sideOutputLateData(tag));
    }

    /** Emits, per window firing, the reduction of its records. */
    public DataStream<T> reduce(ReduceFunction<T> reducer) {
        return single(windows.reduce(reducer));
    }

    /** Reduces incrementally, then gives the single reduced value to {@code function} with the window's metadata. */
    public <R> DataStream<R> reduce(ReduceFunction<T> reducer, ProcessAllWindowFunction<T, R, W> function) {
        return single(windows.reduce(reducer, new Unkeyed<>(Objects.requireNonNull(function, "function"))));
    }

    /** Emits, per window firing, the aggregate of its records. */
    public <ACC, V> DataStream<V> aggregate(AggregateFunction<T, ACC, V> aggregator) {
        return single(windows.aggregate(aggregator));
    }

    /** Aggregates incrementally, then gives the single result to {@code function} with the window's metadata. */
    public <ACC, V, R> DataStream<R> aggregate(AggregateFunction<T, ACC, V> aggregator, ProcessAllWindowFunction<V, R, W> function) {
        return single(windows.aggregate(aggregator, new Unkeyed<>(Objects.requireNonNull(function, "function"))));
    }

    /** Keeps every record of the window and gives them all to {@code function} when it fires. */
    public <R> DataStream<R> process(ProcessAllWindowFunction<T, R, W> function) {
        return single(windows.process(new Unkeyed<>(Objects.requireNonNull(function, "function"))));
    }

    private static <R> DataStream<R> single(DataStream<R> window) {
        window.parallelism(1);
        return new OneSubtask<>(window);
    }

    /** Every record's key: one key for the whole stream, a cached {@code Long} (no allocation per record). */
    static final class WholeStream<T> implements KeySelector<T, Long> {
        private static final long serialVersionUID = 1L;
        private static final Long KEY = 0L;

        @Override
        public Long getKey(T value) {
            return KEY;
        }
    }

    /** The stream of a window over the whole stream, whose parallelism stays 1. */
    private static final class OneSubtask<R> extends DataStream<R> {
        OneSubtask(DataStream<R> window) {
            super(window.pipeline, window.producers, window.partitioning, window.keySelector);
        }

        @Override
        public DataStream<R> parallelism(int parallelism) {
            if (parallelism != 1) {
                throw new IllegalArgumentException("a window over the whole stream (windowAll) runs in one subtask: its parallelism is 1, "
                        + "it cannot be " + parallelism + "; key the stream (keyBy(...).window(...)) to spread windows over subtasks");
            }
            return this;
        }
    }

    /** A process-all-window function seen as a keyed one that ignores its key. */
    private static final class Unkeyed<IN, OUT, W extends Window> extends ProcessWindowFunction<IN, OUT, Long, W> {
        private static final long serialVersionUID = 1L;
        private final ProcessAllWindowFunction<IN, OUT, W> function;
        private transient View<W> view;

        Unkeyed(ProcessAllWindowFunction<IN, OUT, W> function) {
            this.function = function;
        }

        @Override
        public void open(RuntimeContext context) throws Exception {
            view = new View<>();
            function.open(context);
        }

        @Override
        public void close() throws Exception {
            function.close();
        }

        @Override
        public void process(Long key, Context<W> ctx, Iterable<IN> elements, Collector<OUT> out) throws Exception {
            view.context = ctx;
            function.process(view, elements, out);
        }
    }

    /** The keyed window context as the all-window function's, reused from firing to firing. */
    private static final class View<W extends Window> implements ProcessAllWindowFunction.Context<W> {
        ProcessWindowFunction.Context<W> context;

        @Override
        public W window() {
            return context.window();
        }

        @Override
        public long currentWatermark() {
            return context.currentWatermark();
        }

        @Override
        public long currentProcessingTime() {
            return context.currentProcessingTime();
        }

        @Override
        public int firing() {
            return context.firing();
        }

        @Override
        public <X> void output(OutputTag<X> tag, X value) {
            context.output(tag, value);
        }
    }
}
