package io.millrace.api;

import io.millrace.api.functions.Collector;
import io.millrace.api.functions.FlatJoinFunction;
import io.millrace.api.functions.JoinFunction;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.functions.MapFunction;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.functions.RichFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.plan.Partitioning;
import io.millrace.api.window.Window;
import io.millrace.api.window.WindowAssigner;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A window join with its keys and windows; {@link #apply} finishes it. When a window of a key fires, every left
 * row of that key and window is paired with every right row of it (an inner join: a window with rows of one side
 * only emits nothing). Results carry the timestamp {@code window.maxTimestamp()}; pairs come out in no defined
 * order.
 *
 * <p>Both sides are tagged and go through one keyed window operator (named {@code windowJoin} unless renamed),
 * which keeps the rows of each window in keyed state until it fires: checkpointed, restored at any parallelism,
 * on either state backend. Sliding windows keep each row once, in the slice it falls into, not once per window.
 * A row too late for all its windows is dropped and counted in that operator's {@code lateRecordsDropped}
 * metric; use an interval join to send late rows to a side output.
 */
public final class WindowJoin<A, B, K, W extends Window> {
    private final DataStream<A> left;
    private final DataStream<B> right;
    private final KeySelector<A, K> leftKey;
    private final KeySelector<B, K> rightKey;
    private final WindowAssigner<W> assigner;

    WindowJoin(DataStream<A> left, DataStream<B> right, KeySelector<A, K> leftKey, KeySelector<B, K> rightKey, WindowAssigner<W> assigner) {
        this.left = left;
        this.right = right;
        this.leftKey = leftKey;
        this.rightKey = rightKey;
        this.assigner = assigner;
    }

    /** Emits {@code function.join(l, r)} for every pair of a left and a right row of the same key and window. */
    public <R> DataStream<R> apply(JoinFunction<A, B, R> function) {
        return apply(new EachPair<>(Objects.requireNonNull(function, "function")));
    }

    /** Calls {@code function} for every pair of a left and a right row of the same key and window. */
    public <R> DataStream<R> apply(FlatJoinFunction<A, B, R> function) {
        Objects.requireNonNull(function, "function");
        if (left.pipeline != right.pipeline) {
            throw new IllegalArgumentException("join: cannot join streams of different pipelines");
        }
        DataStream<WindowJoinRow> tagged = tag(left, true).union(tag(right, false));
        return tagged.keyBy(new RowKey<>(leftKey, rightKey))
                .window(assigner)
                .process(new PairsOfWindow<A, B, R, K, W>(function))
                .name("windowJoin");
    }

    /** The rows of {@code side}, each wrapped with the side it came from, in an operator chained to their producer. */
    private static DataStream<WindowJoinRow> tag(DataStream<?> side, boolean isLeft) {
        DataStream<?> unpartitioned = new DataStream<>(side.pipeline, side.producers, Partitioning.DEFAULT, null);
        DataStream<WindowJoinRow> tagged = unpartitioned.map(new Tag<>(isLeft)).name(isLeft ? "windowJoin-left" : "windowJoin-right");
        if (side.producers.size() == 1 && side.producers.get(0).tag() == null && side.producers.get(0).node().parallelism() > 0) {
            tagged.parallelism(side.producers.get(0).node().parallelism());
        }
        return tagged;
    }

    /** Wraps a row with its side. */
    private record Tag<T>(boolean isLeft) implements MapFunction<T, WindowJoinRow> {
        @Override
        public WindowJoinRow map(T value) {
            return new WindowJoinRow(isLeft, value);
        }
    }

    /** The key of a tagged row: its side's key. */
    private record RowKey<A, B, K>(KeySelector<A, K> leftKey, KeySelector<B, K> rightKey) implements KeySelector<WindowJoinRow, K> {
        @Override
        @SuppressWarnings("unchecked")
        public K getKey(WindowJoinRow row) throws Exception {
            return row.isLeft() ? leftKey.getKey((A) row.value()) : rightKey.getKey((B) row.value());
        }
    }

    /** A {@link JoinFunction} as a {@link FlatJoinFunction} that emits one result per pair. */
    private record EachPair<A, B, R>(JoinFunction<A, B, R> function) implements FlatJoinFunction<A, B, R>, RichFunction {
        @Override
        public void join(A l, B r, Collector<R> out) throws Exception {
            out.collect(function.join(l, r));
        }

        @Override
        public void open(RuntimeContext context) throws Exception {
            if (function instanceof RichFunction rich) {
                rich.open(context);
            }
        }

        @Override
        public void close() throws Exception {
            if (function instanceof RichFunction rich) {
                rich.close();
            }
        }
    }

    /** Splits a fired window's rows by side and joins every left row with every right row. */
    private static final class PairsOfWindow<A, B, R, K, W extends Window> extends ProcessWindowFunction<WindowJoinRow, R, K, W> {
        private final FlatJoinFunction<A, B, R> function;
        private transient List<A> lefts;
        private transient List<B> rights;

        PairsOfWindow(FlatJoinFunction<A, B, R> function) {
            this.function = function;
        }

        @Override
        public void open(RuntimeContext context) throws Exception {
            lefts = new ArrayList<>();
            rights = new ArrayList<>();
            if (function instanceof RichFunction rich) {
                rich.open(context);
            }
        }

        @Override
        public void close() throws Exception {
            if (function instanceof RichFunction rich) {
                rich.close();
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        public void process(K key, Context<W> ctx, Iterable<WindowJoinRow> rows, Collector<R> out) throws Exception {
            lefts.clear();
            rights.clear();
            for (WindowJoinRow row : rows) {
                if (row.isLeft()) {
                    lefts.add((A) row.value());
                } else {
                    rights.add((B) row.value());
                }
            }
            for (A l : lefts) {
                for (B r : rights) {
                    function.join(l, r, out);
                }
            }
            lefts.clear();
            rights.clear();
        }
    }
}
