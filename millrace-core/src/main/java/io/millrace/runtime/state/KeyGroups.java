package io.millrace.runtime.state;

import io.millrace.api.state.KeyHash;

/**
 * Maps keys to key groups and key groups to subtasks. A key's group depends only on its {@link KeyHash} (the
 * same in every JVM) and maxParallelism, never on the parallelism, so state can be redistributed when the parallelism
 * changes; a subtask owns a contiguous range of groups.
 */
public final class KeyGroups {
    private KeyGroups() {}

    public static int keyGroupFor(Object key, int maxParallelism) {
        if (key == null) {
            throw new NullPointerException("a record's key must not be null");
        }
        int mixed = mix(KeyHash.of(key));
        // the same as floorMod for a power of two (the default maximum parallelism), without a division
        return (maxParallelism & (maxParallelism - 1)) == 0 ? mixed & (maxParallelism - 1) : Math.floorMod(mixed, maxParallelism);
    }

    /** The subtask that owns a key group. */
    public static int subtaskFor(int keyGroup, int maxParallelism, int parallelism) {
        return keyGroup * parallelism / maxParallelism;
    }

    /** The groups owned by a subtask: the inverse of {@link #subtaskFor}. */
    public static KeyGroupRange rangeFor(int subtask, int maxParallelism, int parallelism) {
        if (parallelism > maxParallelism) {
            throw new IllegalArgumentException(
                    "parallelism " + parallelism + " exceeds maxParallelism " + maxParallelism + " (the number of key groups)");
        }
        int start = (subtask * maxParallelism + parallelism - 1) / parallelism;
        int end = ((subtask + 1) * maxParallelism + parallelism - 1) / parallelism - 1;
        return new KeyGroupRange(start, end);
    }

    /** Murmur3's finalizer: spreads poor hash codes (small integers, similar strings) over the groups. */
    static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }
}
