package io.millrace.runtime.state;

/**
 * Overlapping cache misses where the engine visits thousands of keys in a row: a window firing for every key
 * of the window, event-time timers firing at the end of a window. What they read (accumulators, keys, table
 * slots, state entries) was stored long before and is mostly out of cache by then; visited one key at a time,
 * between the emission work of the keys before, it costs one memory round trip after another. Reading the
 * headers of the next {@link #BATCH} keys' objects in a tight loop first lets the processor have those misses
 * in flight together, and the work then finds them in cache. Only reads: correctness never depends on it.
 */
public final class ReadAhead {
    /** Keys read ahead at a time: enough misses to keep the processor's queue full, few enough to stay in L1. */
    public static final int BATCH = 32;

    private ReadAhead() {}

    /**
     * Loads the header of each non-null object in {@code objects[from, to)}. Returns how many are instances of
     * this class, that is none: callers keep the figure so that the compiler cannot leave the loads out.
     */
    public static int headers(Object[] objects, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            if (objects[i] instanceof ReadAhead) {
                n++;
            }
        }
        return n;
    }

    /** Loads the header of {@code object} (null: nothing); returns 0, as {@link #headers} does. */
    public static int header(Object object) {
        return object instanceof ReadAhead ? 1 : 0;
    }
}
