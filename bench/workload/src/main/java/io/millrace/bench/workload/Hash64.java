package io.millrace.bench.workload;

/** SplitMix64 finalizer: a stateless, well-mixed 64-bit hash, so that every random choice is a pure function of an index. */
final class Hash64 {
    private Hash64() {}

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** The {@code k}-th random number of event {@code index} under {@code seed}. */
    static long of(long seed, long index, int k) {
        return mix(seed + index * 0x9e3779b97f4a7c15L + k * 0xd1b54a32d192ed03L);
    }

    /** A non-negative value below {@code bound}. */
    static long below(long random, long bound) {
        return (random >>> 1) % bound;
    }
}
