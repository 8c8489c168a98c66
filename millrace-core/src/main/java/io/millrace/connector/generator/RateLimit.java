package io.millrace.connector.generator;

import io.millrace.api.time.Clock;

/**
 * Paces a reader at a fixed rate by its context clock: by {@code t} seconds after the pacing origin, at most
 * {@code floor(rate * t)} records have been allowed. The origin is shared by the readers of one start of a job
 * ({@link Origin}): the first poll of any of them. So all readers produce the same stretch of the index sequence
 * at the same time; a reader whose thread started a little later catches up at once instead of staying behind the
 * others for the whole run. Not thread-safe: one reader thread. A reader that falls behind (backpressure, a late
 * start) catches up in bursts of at most a batch.
 */
final class RateLimit {
    private final Clock clock;
    private final double perNano;
    private final Origin origin;
    private long startNanos;
    private boolean started;
    private long granted;

    /** {@code recordsPerSecond} must be positive and finite. */
    RateLimit(Clock clock, double recordsPerSecond, Origin origin) {
        this.clock = clock;
        this.perNano = recordsPerSecond / 1e9;
        this.origin = origin;
    }

    /** How many records may be emitted now, at most {@code max}; counts them as emitted. */
    long permits(long max) {
        long now = clock.nanoTime();
        if (!started) {
            started = true;
            startNanos = origin.at(now);
        }
        long allowed = (long) ((now - startNanos) * perNano);
        long n = Math.min(max, allowed - granted);
        if (n <= 0) {
            return 0;
        }
        granted += n;
        return n;
    }

    /** The start time of the pacing, shared by the readers of one start of a job. Thread-safe. */
    static final class Origin {
        private boolean set;
        private long nanos;
        private int readers;

        /** Counts a reader created for this start; returns how many there are now. */
        synchronized int join() {
            return ++readers;
        }

        synchronized int readers() {
            return readers;
        }

        /** The origin: {@code now} if no reader has asked before, else what the first one was told. */
        synchronized long at(long now) {
            if (!set) {
                set = true;
                nanos = now;
            }
            return nanos;
        }
    }
}
