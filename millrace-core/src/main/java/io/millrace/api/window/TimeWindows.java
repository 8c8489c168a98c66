package io.millrace.api.window;

import io.millrace.api.time.TimeDomain;

/**
 * Tumbling ({@code slide == size}) or sliding time windows {@code [k*slide + offset, k*slide + offset + size)}.
 * The runtime cuts time into slices of {@code gcd(size, slide)} ms; each record goes into one slice and a
 * window's result merges the slices it covers. Immutable; the {@code with...}/{@code in...} methods return copies.
 */
public final class TimeWindows extends WindowAssigner<TimeWindow> {
    private final long size;
    private final long slide;
    private final long offset;
    private final TimeDomain domain;

    TimeWindows(long size, long slide, long offset, TimeDomain domain) {
        if (size <= 0 || slide <= 0) {
            throw new IllegalArgumentException("window size and slide must be positive, were " + size + " ms and " + slide + " ms");
        }
        if (slide > size) {
            throw new IllegalArgumentException("window slide (" + slide + " ms) must not exceed its size (" + size + " ms)");
        }
        this.size = size;
        this.slide = slide;
        this.offset = Math.floorMod(offset, slide);
        this.domain = domain;
    }

    /** Window length in ms. */
    public long size() {
        return size;
    }

    /** Distance between window starts in ms; equal to {@link #size()} for tumbling windows. */
    public long slide() {
        return slide;
    }

    /** Shift of window starts from the epoch, in [0, slide). */
    public long offset() {
        return offset;
    }

    public boolean isTumbling() {
        return size == slide;
    }

    @Override
    public TimeDomain timeDomain() {
        return domain;
    }

    /** The same windows, placed by the pipeline clock at arrival instead of by event timestamps. */
    public TimeWindows inProcessingTime() {
        return new TimeWindows(size, slide, offset, TimeDomain.PROCESSING_TIME);
    }

    @Override
    public Trigger<Object, Window> defaultTrigger() {
        return domain == TimeDomain.EVENT_TIME ? Triggers.eventTime() : Triggers.processingTime();
    }

    @Override
    public String toString() {
        return (isTumbling() ? "tumbling(" + size : "sliding(" + size + ", " + slide) + " ms, offset " + offset + ", " + domain + ")";
    }
}
