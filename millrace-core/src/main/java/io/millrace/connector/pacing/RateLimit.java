package io.millrace.connector.pacing;

import io.millrace.api.time.Clock;

/**
 * Paces a source reader (the generator's, the file source's) at a fixed rate by its context clock: by {@code t} seconds after the pacing origin, at most
 * {@code floor(rate * t)} records have been allowed. The origin is shared by the readers of one start of a job
 * ({@link Origin}): the first poll of any of them. So all readers produce the same stretch of the index sequence
 * at the same time; a reader whose thread started a little later catches up at once instead of staying behind the
 * others for the whole run. Not thread-safe: one reader thread. A reader that falls behind (backpressure, a late
 * start) catches up in bursts of at most a batch.
 *
 * <p>A reader that has caught up is given records only once a chunk of them is due: what {@link #CHUNK_NANOS} of
 * its rate makes (at least one record, at most the batch asked for). Granting whatever is due at each poll would
 * make a fast reader poll without end for a handful of records each time (at 10 M records/s, one record every
 * 100 ns), spending a core on the poll loop and its clock reads; with chunks it says nothing is available and its
 * task waits, as a real source between two deliveries.
 */
public final class RateLimit {
    private final Clock clock;
    private final double perNano;
    private final Origin origin;
    private long startNanos;
    private boolean started;
    private long granted;
    /** The clock's reading at the last {@link #permits}. */
    private long lastNow;
    /** Records in {@link #CHUNK_NANOS} at this rate, at least 1. */
    private final long chunk;

    /** A caught-up reader waits until this much of its rate is due. */
    public static final long CHUNK_NANOS = 100_000;

    /** {@code recordsPerSecond} must be positive and finite. */
    public RateLimit(Clock clock, double recordsPerSecond, Origin origin) {
        this.clock = clock;
        this.perNano = recordsPerSecond / 1e9;
        this.origin = origin;
        this.chunk = Math.max(1, (long) (perNano * CHUNK_NANOS));
    }

    /** How many records may be emitted now, at most {@code max}, none until a chunk is due; counts them as emitted. */
    public long permits(long max) {
        long now = clock.nanoTime();
        lastNow = now;
        if (!started) {
            started = true;
            startNanos = origin.at(now);
        }
        long allowed = (long) ((now - startNanos) * perNano);
        long n = Math.min(max, allowed - granted);
        if (n <= 0 || n < Math.min(max, chunk)) {
            return 0;
        }
        granted += n;
        return n;
    }

    /** Returns {@code n} permits of the last {@link #permits} that were not used (the input ended before them). */
    public void giveBack(long n) {
        if (n < 0 || n > granted) {
            throw new IllegalArgumentException("cannot give back " + n + " permits of " + granted);
        }
        granted -= n;
    }

    /** Nanoseconds from now until a chunk of records is due (0 if one is), by the clock's last reading in {@link #permits}. */
    public long nanosUntilChunk() {
        if (!started) {
            return 0;
        }
        long dueAt = startNanos + (long) ((granted + chunk) / perNano);
        return Math.max(0, dueAt - lastNow);
    }

    /**
     * The origins of a source's readers: the readers of one start of the job pace from one origin. A start creates
     * one reader per subtask, so the reader after the last one of a start (a restart, or the next job with this
     * source) begins a new origin. Thread-safe; a source holds one (transient: not part of its serialized form).
     */
    public static final class Origins {
        private Origin current;

        /** The origin for a reader being created for a start of {@code parallelism} readers; counts the reader. */
        public synchronized Origin join(int parallelism) {
            if (current == null || current.readers() >= parallelism) {
                current = new Origin();
            }
            current.join();
            return current;
        }
    }

    /** The start time of the pacing, shared by the readers of one start of a job. Thread-safe. */
    public static final class Origin {
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
