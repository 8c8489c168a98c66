package io.millrace.runtime.window;

/**
 * Canonical boxed slice starts, so that looking up a recent slice in state does not allocate a new
 * {@code Long} per record. A direct-mapped cache indexed by slice number; a miss allocates and replaces.
 * Task thread only; holds no state that a restore needs.
 */
final class SliceNamespaces {
    private static final int CAPACITY = 256;
    private final Long[] cache = new Long[CAPACITY];
    private final long slice;

    SliceNamespaces(long slice) {
        this.slice = slice;
    }

    Long of(long sliceStart) {
        int i = (int) Math.floorMod(Math.floorDiv(sliceStart, slice), (long) CAPACITY);
        Long cached = cache[i];
        if (cached != null && cached == sliceStart) {
            return cached;
        }
        Long boxed = sliceStart;
        cache[i] = boxed;
        return boxed;
    }
}
