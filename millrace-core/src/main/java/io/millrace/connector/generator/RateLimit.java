package io.millrace.connector.generator;

import io.millrace.api.time.Clock;

/**
 * Paces a reader at a fixed rate by its context clock: by {@code t} seconds after the first
 * {@link #permits} call, at most {@code floor(rate * t)} records have been allowed. Not thread-safe: one
 * reader thread. A reader that falls behind (backpressure) may catch up in bursts of at most a batch.
 */
final class RateLimit {
    private final Clock clock;
    private final double perNano;
    private long startNanos;
    private boolean started;
    private long granted;

    /** {@code recordsPerSecond} must be positive and finite. */
    RateLimit(Clock clock, double recordsPerSecond) {
        this.clock = clock;
        this.perNano = recordsPerSecond / 1e9;
    }

    /** How many records may be emitted now, at most {@code max}; counts them as emitted. */
    long permits(long max) {
        long now = clock.nanoTime();
        if (!started) {
            started = true;
            startNanos = now;
        }
        long allowed = (long) ((now - startNanos) * perNano);
        long n = Math.min(max, allowed - granted);
        if (n <= 0) {
            return 0;
        }
        granted += n;
        return n;
    }
}
