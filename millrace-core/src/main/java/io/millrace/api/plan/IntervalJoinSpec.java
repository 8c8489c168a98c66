package io.millrace.api.plan;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.ProcessJoinFunction;

/**
 * An event-time interval join of two keyed inputs: a left row at {@code t} and a right row of the same key at
 * {@code u} match when {@code t + lower <= u <= t + upper}. The bounds are inclusive milliseconds ({@code lower <=
 * upper}); exclusive bounds are turned into inclusive ones by the API. Rows at or below the watermark when they
 * arrive are late: they go to {@code leftLate} / {@code rightLate}, or are dropped and counted when that tag is
 * null.
 */
public record IntervalJoinSpec<A, B, R>(ProcessJoinFunction<A, B, R> function, long lower, long upper,
        OutputTag<A> leftLate, OutputTag<B> rightLate) implements OperatorSpec {
    public IntervalJoinSpec {
        if (function == null) {
            throw new NullPointerException("function");
        }
        if (lower > upper) {
            throw new IllegalArgumentException("interval join bounds: lower bound " + lower + " ms is above upper bound " + upper + " ms");
        }
    }

    @Override
    public String defaultName() {
        return "intervalJoin";
    }

    @Override
    public boolean keyed() {
        return true;
    }
}
