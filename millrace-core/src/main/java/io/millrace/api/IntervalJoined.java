package io.millrace.api;

import io.millrace.api.functions.ProcessJoinFunction;
import io.millrace.api.plan.IntervalJoinSpec;
import io.millrace.api.plan.LogicalNode;
import java.util.Objects;

/**
 * An interval join with its bounds; finish it with {@link #process}. Immutable: each setting returns a new
 * instance.
 *
 * <p>Each side's rows are kept in keyed state until the watermark passes the last time a row of the other side
 * could still match them, then removed. A row whose timestamp is at or below the join's watermark when it arrives
 * is late: with a side output set for its side it goes there, else it is dropped and counted in the join's
 * {@code lateRecordsDropped} metric. Rows need event timestamps (a {@code WatermarkStrategy} on their source or
 * {@code assignTimestampsAndWatermarks}); a row without one fails the job with the operator's name.
 */
public final class IntervalJoined<A, B, K> {
    private final KeyedStream<K, A> left;
    private final KeyedStream<K, B> right;
    private final long lower;
    private final long upper;
    private final boolean lowerExclusive;
    private final boolean upperExclusive;
    private final OutputTag<A> leftLate;
    private final OutputTag<B> rightLate;

    IntervalJoined(KeyedStream<K, A> left, KeyedStream<K, B> right, long lower, long upper, boolean lowerExclusive, boolean upperExclusive,
            OutputTag<A> leftLate, OutputTag<B> rightLate) {
        this.left = left;
        this.right = right;
        this.lower = lower;
        this.upper = upper;
        this.lowerExclusive = lowerExclusive;
        this.upperExclusive = upperExclusive;
        this.leftLate = leftLate;
        this.rightLate = rightLate;
    }

    /** A right row exactly at {@code t + lower} no longer matches. */
    public IntervalJoined<A, B, K> lowerBoundExclusive() {
        return new IntervalJoined<>(left, right, lower, upper, true, upperExclusive, leftLate, rightLate);
    }

    /** A right row exactly at {@code t + upper} no longer matches. */
    public IntervalJoined<A, B, K> upperBoundExclusive() {
        return new IntervalJoined<>(left, right, lower, upper, lowerExclusive, true, leftLate, rightLate);
    }

    /** Late left rows go to this side output instead of being dropped. */
    public IntervalJoined<A, B, K> sideOutputLeftLateData(OutputTag<A> tag) {
        return new IntervalJoined<>(left, right, lower, upper, lowerExclusive, upperExclusive, Objects.requireNonNull(tag, "tag"), rightLate);
    }

    /** Late right rows go to this side output instead of being dropped. */
    public IntervalJoined<A, B, K> sideOutputRightLateData(OutputTag<B> tag) {
        return new IntervalJoined<>(left, right, lower, upper, lowerExclusive, upperExclusive, leftLate, Objects.requireNonNull(tag, "tag"));
    }

    /**
     * Calls {@code function} for every matching pair; its results carry the later of the pair's two timestamps.
     * Fails when exclusive bounds leave no time in the interval.
     */
    public <R> DataStream<R> process(ProcessJoinFunction<A, B, R> function) {
        Objects.requireNonNull(function, "function");
        long lo = lowerExclusive ? lower + 1 : lower;
        long up = upperExclusive ? upper - 1 : upper;
        if (lo > up) {
            throw new IllegalArgumentException("intervalJoin: between(" + lower + " ms, " + upper + " ms)"
                    + (lowerExclusive ? " with an exclusive lower bound" : "") + (upperExclusive ? " with an exclusive upper bound" : "")
                    + " contains no millisecond");
        }
        if (left.pipeline != right.pipeline) {
            throw new IllegalArgumentException("intervalJoin: cannot join streams of different pipelines");
        }
        LogicalNode node = left.pipeline.addNode(new IntervalJoinSpec<>(function, lo, up, leftLate, rightLate));
        left.connectTo(node, 0);
        right.connectTo(node, 1);
        return new DataStream<>(left.pipeline, node);
    }
}
