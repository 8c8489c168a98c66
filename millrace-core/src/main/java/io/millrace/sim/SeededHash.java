package io.millrace.sim;

/**
 * Stateless pseudo-random numbers: a value is a pure function of the seed and a few coordinates (a
 * machine, a cycle, a slot), which is what makes the simulation replayable from any position. Based on
 * the SplitMix64 finalizer.
 */
final class SeededHash {
    private SeededHash() {}

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** A uniform double in [0, 1) for the seed, a purpose tag and two coordinates. */
    static double unit(long seed, int tag, long a, long b) {
        long h = mix(mix(mix(seed ^ (tag * 0x9E3779B97F4A7C15L)) + a) + b * 0xD6E8FEB86659FD93L);
        return (h >>> 11) * 0x1.0p-53;
    }
}
