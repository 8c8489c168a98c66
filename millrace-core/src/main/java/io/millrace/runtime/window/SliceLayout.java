package io.millrace.runtime.window;

import io.millrace.api.window.TimeWindows;

/**
 * Arithmetic of time windows {@code [k*slide + offset, k*slide + offset + size)} cut into slices of
 * {@code gcd(size, slide)} ms. Every window is a whole number of slices and every slice lies in the same
 * windows as each of its timestamps. Pure functions of the fields; slices are identified by their start.
 */
record SliceLayout(long size, long slide, long offset, long slice) {

    static SliceLayout of(TimeWindows windows) {
        return of(windows.size(), windows.slide(), windows.offset());
    }

    static SliceLayout of(long size, long slide, long offset) {
        return new SliceLayout(size, slide, Math.floorMod(offset, slide), gcd(size, slide));
    }

    static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    /** Start of the slice holding {@code timestamp}. */
    long sliceStart(long timestamp) {
        return timestamp - Math.floorMod(timestamp - offset, slice);
    }

    /** The latest window start at or before {@code time}. */
    long windowStartAtOrBefore(long time) {
        return time - Math.floorMod(time - offset, slide);
    }

    /** End of the earliest window that contains the slice starting at {@code sliceStart}. */
    long firstWindowEnd(long sliceStart) {
        return windowStartAtOrBefore(sliceStart - size) + slide + size;
    }

    /** End of the latest window that contains the slice starting at {@code sliceStart}. */
    long lastWindowEnd(long sliceStart) {
        return windowStartAtOrBefore(sliceStart) + size;
    }

    boolean isTumbling() {
        return size == slide;
    }
}
