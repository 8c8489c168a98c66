package io.millrace.runtime.window;

/**
 * When the windows of a sliced window operator fire and are cleaned up: its slice layout, allowed lateness and time
 * domain. Shared by the two layouts of time windows ({@link SliceTableWindowOperator}, {@link SlicingWindowOperator})
 * so that the canonical savepoint form of their state ({@link SliceStoreForm}) means the same to both.
 */
record SliceTiming(SliceLayout layout, long lateness, boolean eventTime) {
    /** When the state of a window with this max timestamp is removed (as {@link WindowOperatorBase#cleanupTime}). */
    long cleanupTime(long maxTimestamp) {
        long t = maxTimestamp + lateness;
        return t < maxTimestamp ? Long.MAX_VALUE : t;
    }

    /**
     * The end of the first window of slice {@code sliceStart} that has not fired when windows fired up to
     * {@code done}, or {@code Long.MIN_VALUE} when all of them have: where {@link SlicingWindowOperator} registers
     * its firing timer (at the end minus 1) when a record opens the slice.
     */
    long firstUnfiredEnd(long sliceStart, long done) {
        long firstEnd = layout.firstWindowEnd(sliceStart);
        long due = firstEnd - 1 > done ? firstEnd
                : firstEnd + (done + 1 - firstEnd) / layout.slide() * layout.slide() + layout.slide();
        return due <= layout.lastWindowEnd(sliceStart) ? due : Long.MIN_VALUE;
    }
}
