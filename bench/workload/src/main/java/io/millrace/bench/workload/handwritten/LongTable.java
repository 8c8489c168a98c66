package io.millrace.bench.workload.handwritten;

import java.util.Arrays;

/**
 * Long keys to dense positions 0, 1, 2, ... in order of first insertion, by open addressing with linear probing: the
 * caller keeps its values in arrays of its own at those positions. What a hand-written keyed aggregation keeps per
 * slice: no boxing, no entry objects.
 */
final class LongTable {
    private long[] keys = new long[64];
    /** Position + 1 of the key hashed to each slot; 0 for a free slot. */
    private int[] slots = new int[128];
    private int size;

    /** Forgets every key; keeps the capacity. */
    void clear() {
        Arrays.fill(slots, 0);
        size = 0;
    }

    int size() {
        return size;
    }

    long key(int position) {
        return keys[position];
    }

    /** The key's position, or -1. */
    int find(long key) {
        int mask = slots.length - 1;
        for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
            int s = slots[i];
            if (s == 0) {
                return -1;
            }
            if (keys[s - 1] == key) {
                return s - 1;
            }
        }
    }

    /** The key's position, added at the next one (which is then {@code size() - 1}) when absent. */
    int findOrAdd(long key) {
        int mask = slots.length - 1;
        int i = mix(key) & mask;
        while (true) {
            int s = slots[i];
            if (s == 0) {
                break;
            }
            if (keys[s - 1] == key) {
                return s - 1;
            }
            i = (i + 1) & mask;
        }
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
        }
        keys[size] = key;
        slots[i] = ++size;
        if (size * 2 > slots.length) {
            rehash();
        }
        return size - 1;
    }

    private void rehash() {
        slots = new int[slots.length * 2];
        int mask = slots.length - 1;
        for (int p = 0; p < size; p++) {
            int i = mix(keys[p]) & mask;
            while (slots[i] != 0) {
                i = (i + 1) & mask;
            }
            slots[i] = p + 1;
        }
    }

    static int mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
