package io.millrace.runtime.state;

/**
 * The open-addressing index of the engine's dense tables (heap keyed state's {@code KeyTable}, the window slices'
 * {@code SliceTable}): entries sit in arrays by position, and a {@code long[]} of slots, a power of two long and at
 * most half full, holds per slot the key's hash in the high half and the entry's position + 1 in the low half (0:
 * free). Linear probing from the slot chosen by Fibonacci hashing on the hash's high bits: the key group was chosen
 * from a murmur mix of the same hash, so the slot must not depend on the same low bits, or a group's keys would
 * share slots. A probe reads one word per slot and touches an entry only on a hash match.
 */
public final class SlotIndex {
    private SlotIndex() {}

    /** The shift that {@link #home} uses for {@code slotCount} slots (a power of two, at least 2). */
    public static int shift(int slotCount) {
        return 32 - Integer.numberOfTrailingZeros(slotCount);
    }

    /** The slot where the probe for {@code hash} starts. */
    public static int home(int hash, int shift) {
        return (hash * 0x9E3779B9) >>> shift;
    }

    /** The slot word for the entry at {@code position} whose key has {@code hash}. */
    public static long slot(int hash, int position) {
        return ((long) hash << 32) | (position + 1);
    }

    /**
     * The position of a key of hash {@code hash}, or -1: probes from its home slot and, on a hash match, compares
     * the entry's key with {@code number} in {@code numbers} ({@code byNumber}, for tables that keep {@code Long}
     * keys as numbers) or else with {@code key} in {@code keys} (identity, then {@code equals}). {@code slots} must
     * not be empty.
     */
    public static int find(long[] slots, int shift, int hash, long[] numbers, Object[] keys, Object key, boolean byNumber,
            long number) {
        int mask = slots.length - 1;
        int i = home(hash, shift);
        while (true) {
            long slot = slots[i];
            if (slot == 0) {
                return -1;
            }
            if ((int) (slot >>> 32) == hash) {
                int p = (int) slot - 1;
                if (byNumber ? numbers[p] == number : keys[p] == key || keys[p].equals(key)) {
                    return p;
                }
            }
            i = (i + 1) & mask;
        }
    }

    /** Puts the entry at {@code position} into the first free slot from its home. */
    public static void put(long[] slots, int shift, int hash, int position) {
        int mask = slots.length - 1;
        int i = home(hash, shift);
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        slots[i] = slot(hash, position);
    }

    /** A new index of {@code slotCount} slots over the entries at positions {@code [0, size)} with these hashes. */
    public static long[] build(int[] hashes, int size, int slotCount) {
        long[] slots = new long[slotCount];
        int shift = shift(slotCount);
        for (int p = 0; p < size; p++) {
            put(slots, shift, hashes[p], p);
        }
        return slots;
    }
}
