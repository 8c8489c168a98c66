package io.millrace.runtime.task;

import io.millrace.runtime.exchange.Channel;

/**
 * Sizes the channels into one subtask so that each holds about what the subtask reads from it in a target
 * time, like Flink's buffer debloating. A fast subtask gets long queues (up to the channel capacity), so its
 * producers keep working while it pauses, for instance to snapshot; a slow or backpressured one gets short
 * queues, so a checkpoint barrier waits behind little data and an aligned checkpoint completes quickly even
 * under backpressure.
 *
 * <p>The reading rate of each channel is measured over the subtask's busy time only (time spent waiting for
 * input does not count: a consumer starved by its producers could read faster), smoothed over a few periods. A
 * period the subtask spent almost entirely idle measures nothing and doubles each bound, up to the capacity.
 * Time blocked on a full output does count: that is what makes a backpressured subtask slow. Used by the
 * task thread only.
 */
final class InFlightSizing {
    /** How often the bounds are recomputed. */
    static final long PERIOD_NANOS = 50_000_000L;
    /** Weight of the newest period in the smoothed rate. */
    private static final double NEWEST_WEIGHT = 0.3;
    /** Least busy time a period needs for its rate to mean something. */
    private static final long MIN_BUSY_NANOS = 1_000_000L;
    /** Bound never set below this (if the capacity allows): one batch being read, one queued. */
    static final int MIN_BOUND = 2;

    private final Channel[] channels;
    private final long targetNanos;
    private final long[] lastConsumed;
    /** Smoothed elements per busy nanosecond, per channel; negative until the first measurement. */
    private final double[] rate;
    private long periodStart;
    private long idleAtPeriodStart;

    /**
     * @param targetNanos how long a channel's content should take the subtask to read; must be positive
     * @param now the clock's nanoseconds when the subtask starts reading
     */
    InFlightSizing(Channel[] channels, long targetNanos, long now) {
        this.channels = channels;
        this.targetNanos = targetNanos;
        this.lastConsumed = new long[channels.length];
        this.rate = new double[channels.length];
        java.util.Arrays.fill(rate, -1);
        this.periodStart = now;
    }

    /** Whether a period has passed since the last {@link #resize}. */
    boolean due(long now) {
        return now - periodStart >= PERIOD_NANOS;
    }

    /**
     * Measures the period that ends now and sets each channel's bound.
     *
     * @param idleNanos the subtask's total time spent waiting for input so far
     * @param paused per channel, whether it was not read on purpose (held back by a checkpoint alignment):
     *     its rate is kept as it was
     */
    void resize(long now, long idleNanos, boolean[] paused) {
        long busy = (now - periodStart) - (idleNanos - idleAtPeriodStart);
        periodStart = now;
        idleAtPeriodStart = idleNanos;
        for (int i = 0; i < channels.length; i++) {
            Channel c = channels[i];
            long consumed = c.consumed();
            long read = consumed - lastConsumed[i];
            lastConsumed[i] = consumed;
            if (paused[i]) {
                continue;
            }
            if (busy < MIN_BUSY_NANOS) {
                // idle nearly all the period, so not what holds anything back: its rate means nothing, but its
                // channels may hold more (a task sleeping through watermarks lets them gather), so double the
                // bound, up to the capacity, rather than jump there at once (a slow consumer may just be between bursts)
                c.bound(Math.min(c.capacity(), 2 * c.bound()));
                continue;
            }
            double r = (double) read / busy;
            rate[i] = rate[i] < 0 ? r : rate[i] + NEWEST_WEIGHT * (r - rate[i]);
            c.bound(boundFor(rate[i], c.capacity()));
        }
    }

    private int boundFor(double elementsPerNano, int capacity) {
        double wanted = Math.ceil(elementsPerNano * targetNanos - 1e-6); // tolerate rounding: 10.000000000000002 is 10
        int floor = Math.min(MIN_BOUND, capacity);
        return (int) Math.max(floor, Math.min(capacity, wanted));
    }
}
