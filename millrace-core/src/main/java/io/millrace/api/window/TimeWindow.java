package io.millrace.api.window;

/** The half-open time interval [start, end). */
public record TimeWindow(long start, long end) implements Window {
    public TimeWindow {
        if (end <= start) {
            throw new IllegalArgumentException("window end " + end + " must be after its start " + start);
        }
    }

    @Override
    public long maxTimestamp() {
        return end - 1;
    }

    public boolean intersects(TimeWindow other) {
        return start <= other.end && other.start <= end;
    }

    public TimeWindow cover(TimeWindow other) {
        return new TimeWindow(Math.min(start, other.start), Math.max(end, other.end));
    }
}
