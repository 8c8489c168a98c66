package io.millrace.runtime.join;

/** Saturating arithmetic on event timestamps, so that bounds near the ends of time neither wrap nor fail. */
final class Bounds {
    private Bounds() {}

    /** {@code t + d}, clamped to {@code [Long.MIN_VALUE, Long.MAX_VALUE]}. */
    static long plus(long t, long d) {
        long r = t + d;
        if (((t ^ r) & (d ^ r)) < 0) {
            return d > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        return r;
    }

    /** {@code -d}, with {@code Long.MIN_VALUE} turned into {@code Long.MAX_VALUE}. */
    static long negate(long d) {
        return d == Long.MIN_VALUE ? Long.MAX_VALUE : -d;
    }
}
