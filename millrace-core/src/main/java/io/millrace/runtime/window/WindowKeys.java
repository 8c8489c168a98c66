package io.millrace.runtime.window;

import io.millrace.runtime.state.ReadAhead;
import java.util.Arrays;
import java.util.List;

/**
 * Scratch space for firing one window in one key group: the distinct keys of the window's slice tables, in
 * order of first appearance, each with its accumulators in the order added (oldest slice first). One hash
 * lookup per (key, slice) entry, however many slices the window has. An accumulator is given either as itself or,
 * when its table packs values ({@link Packing}), as its table and position there ({@link #collectPacked}). Reused
 * across firings; task thread only.
 */
final class WindowKeys {
    /** The keys, unless every key so far is a {@link Long} ({@link #longKeys}): then null entries. */
    private Object[] keys = new Object[16];
    /** The keys' numbers while every key is a {@link Long}: matched without loading or keeping key objects. */
    private long[] keyLongs = new long[16];
    private boolean longKeys = true;
    private int[] hashes = new int[16];
    private int[] slotOf = new int[16];
    private int[] first = new int[16];
    private int[] last = new int[16];
    private int size;
    private Object[] accs = new Object[64];
    private int[] positions = new int[64];
    private int[] next = new int[64];
    private int accCount;
    /** Key position + 1 per slot, 0 when free; at most half full. */
    private int[] slots = new int[32];
    private int shift = 32 - 5;

    int size() {
        return size;
    }

    /** Key {@code i}: a new {@link Long} made from its number while every key is a Long, else the key given. */
    Object key(int i) {
        return longKeys ? Long.valueOf(keyLongs[i]) : keys[i];
    }

    /**
     * Adds one slice's accumulator of a key (whose hashCode is {@code hash}): {@code acc} itself, or the table that
     * packs it and its {@code position} there. The key is {@code number} when {@code numeric} (a {@link Long};
     * {@code key} may then be null), else {@code key}.
     */
    void add(Object key, int hash, boolean numeric, long number, Object acc, int position) {
        if (longKeys && !numeric) {
            keepKeyObjects();
        }
        if (!longKeys && key == null) {
            key = number;
        }
        int mask = slots.length - 1;
        int s = (hash * 0x9E3779B9) >>> shift;
        int k;
        while (true) {
            int p = slots[s] - 1;
            if (p < 0) {
                k = insert(key, hash, number, s);
                break;
            }
            if (hashes[p] == hash && (longKeys ? keyLongs[p] == number : keys[p] == key || keys[p].equals(key))) {
                k = p;
                break;
            }
            s = (s + 1) & mask;
        }
        if (accCount == accs.length) {
            accs = Arrays.copyOf(accs, accCount * 2);
            positions = Arrays.copyOf(positions, accCount * 2);
            next = Arrays.copyOf(next, accCount * 2);
        }
        int a = accCount++;
        accs[a] = acc;
        positions[a] = position;
        next[a] = -1;
        if (first[k] < 0) {
            first[k] = a;
        } else {
            next[last[k]] = a;
        }
        last[k] = a;
    }

    /**
     * Reads the keys {@code [from, to)} and their accumulators ahead of their use ({@link ReadAhead}); returns
     * what {@link ReadAhead#headers} does.
     */
    int readAhead(int from, int to) {
        int n = longKeys ? 0 : ReadAhead.headers(keys, from, to);
        for (int i = from; i < to; i++) {
            for (int a = first[i]; a >= 0; a = next[a]) {
                n += ReadAhead.header(accs[a]);
            }
        }
        return n;
    }

    /**
     * Puts the packed accumulators of key {@code i} into {@code out}, in the order added (each given as its table
     * and position): a new instance when the key has one (a result may be the accumulator itself), else the
     * instances of {@code scratch}, one per slice, made by {@code packing} as needed, which the aggregation merges
     * into a new one.
     */
    void collectPacked(int i, List<Object> out, List<Object> scratch, Packing packing) {
        int a = first[i];
        if (next[a] < 0) {
            out.add(((SliceTable) accs[a]).value(positions[a]));
            return;
        }
        for (int j = 0; a >= 0; a = next[a], j++) {
            if (j == scratch.size()) {
                scratch.add(packing.newInstance());
            }
            out.add(((SliceTable) accs[a]).valueInto(positions[a], scratch.get(j)));
        }
    }

    /** Puts the accumulators of key {@code i} into {@code out}, in the order added. */
    void collect(int i, List<Object> out) {
        for (int a = first[i]; a >= 0; a = next[a]) {
            out.add(accs[a]);
        }
    }

    /** Forgets every key and accumulator; costs the number of keys, not the capacity. */
    void clear() {
        for (int i = 0; i < size; i++) {
            slots[slotOf[i]] = 0;
        }
        Arrays.fill(keys, 0, size, null);
        Arrays.fill(accs, 0, accCount, null);
        size = 0;
        accCount = 0;
        longKeys = true;
    }

    /** The first key that is not a {@link Long} comes: the keys so far become objects. */
    private void keepKeyObjects() {
        for (int i = 0; i < size; i++) {
            keys[i] = keyLongs[i];
        }
        longKeys = false;
    }

    private int insert(Object key, int hash, long number, int slot) {
        if (size == keys.length) {
            int capacity = size * 2;
            keys = Arrays.copyOf(keys, capacity);
            keyLongs = Arrays.copyOf(keyLongs, capacity);
            hashes = Arrays.copyOf(hashes, capacity);
            slotOf = Arrays.copyOf(slotOf, capacity);
            first = Arrays.copyOf(first, capacity);
            last = Arrays.copyOf(last, capacity);
        }
        int k = size++;
        if (longKeys) {
            keyLongs[k] = number;
        } else {
            keys[k] = key;
        }
        hashes[k] = hash;
        first[k] = -1;
        if (size * 2 > slots.length) {
            rehash(slots.length * 2);
        } else {
            slots[slot] = k + 1;
            slotOf[k] = slot;
        }
        return k;
    }

    private void rehash(int slotCount) {
        slots = new int[slotCount];
        shift = 32 - Integer.numberOfTrailingZeros(slotCount);
        int mask = slotCount - 1;
        for (int k = 0; k < size; k++) {
            int s = (hashes[k] * 0x9E3779B9) >>> shift;
            while (slots[s] != 0) {
                s = (s + 1) & mask;
            }
            slots[s] = k + 1;
            slotOf[k] = s;
        }
    }
}
