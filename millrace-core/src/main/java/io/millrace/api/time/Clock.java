package io.millrace.api.time;

/**
 * The source of processing time. Engine code never reads the system clock directly: it asks the
 * pipeline's clock, so that tests can use a {@link ManualClock} and step time deterministically.
 */
public interface Clock {
    /** Milliseconds since the epoch. */
    long millis();

    /** A monotonic nanosecond counter, for durations only. */
    long nanoTime();

    static Clock system() {
        return SystemClock.INSTANCE;
    }
}
