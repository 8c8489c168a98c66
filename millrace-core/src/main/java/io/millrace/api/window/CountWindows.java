package io.millrace.api.window;

import io.millrace.api.time.TimeDomain;

/**
 * Count windows per key: every {@code slide} records, emit the result over the last {@code size} records
 * (fewer at the start of a key). Tumbling when {@code slide == size}. Computed from slices of
 * {@code gcd(size, slide)} records. The window seen by a window function is {@link GlobalWindow}, and the
 * firing index counts the firings of the key. Count windows have their own trigger logic.
 */
public final class CountWindows extends WindowAssigner<GlobalWindow> {
    private final long size;
    private final long slide;

    private CountWindows(long size, long slide) {
        if (size <= 0 || slide <= 0) {
            throw new IllegalArgumentException("count window size and slide must be positive, were " + size + " and " + slide);
        }
        if (slide > size) {
            throw new IllegalArgumentException("count window slide (" + slide + ") must not exceed its size (" + size + ")");
        }
        this.size = size;
        this.slide = slide;
    }

    /** Every {@code slide} records, the last {@code size} records of the key. */
    public static CountWindows of(long size, long slide) {
        return new CountWindows(size, slide);
    }

    public long size() {
        return size;
    }

    public long slide() {
        return slide;
    }

    @Override
    public TimeDomain timeDomain() {
        return TimeDomain.EVENT_TIME;
    }

    @Override
    public Trigger<Object, Window> defaultTrigger() {
        return Triggers.never();
    }

    @Override
    public String toString() {
        return "count(" + size + ", " + slide + ")";
    }
}
