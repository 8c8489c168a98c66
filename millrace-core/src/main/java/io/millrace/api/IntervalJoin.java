package io.millrace.api;

import java.time.Duration;
import java.util.Objects;

/**
 * The first step of an event-time interval join of two keyed streams:
 * {@code left.intervalJoin(right).between(lower, upper)}. Both streams must be keyed by keys of the same type
 * that are equal for rows that may match.
 *
 * @param <A> left row type
 * @param <B> right row type
 * @param <K> key type
 */
public final class IntervalJoin<A, B, K> {
    private final KeyedStream<K, A> left;
    private final KeyedStream<K, B> right;

    IntervalJoin(KeyedStream<K, A> left, KeyedStream<K, B> right) {
        this.left = left;
        this.right = right;
    }

    /**
     * A left row at {@code t} matches every right row of its key at {@code u} with
     * {@code t + lower <= u <= t + upper} (both inclusive until made exclusive). Negative bounds reach into the
     * past: {@code between(ofSeconds(-30), ofSeconds(0))} pairs a row with the right rows of the 30 s before it.
     * Millisecond precision; fails when {@code lower} is above {@code upper}.
     */
    public IntervalJoined<A, B, K> between(Duration lower, Duration upper) {
        long lo = Objects.requireNonNull(lower, "lower").toMillis();
        long up = Objects.requireNonNull(upper, "upper").toMillis();
        if (lo > up) {
            throw new IllegalArgumentException("intervalJoin: between(" + lower + ", " + upper + ") has its lower bound above its upper bound");
        }
        return new IntervalJoined<>(left, right, lo, up, false, false, null, null);
    }
}
