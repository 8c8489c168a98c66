package io.millrace.runtime.window;

import io.millrace.runtime.state.ReadAhead;
import io.millrace.runtime.state.SlotIndex;
import io.millrace.runtime.state.heap.ImmutableClasses;
import java.util.Arrays;

/**
 * The values of one slice (or the firing counts of one window) for the keys of one key group: an
 * open-addressing hash table that keeps its entries in insertion order, so that firing and snapshots visit
 * keys in an order that a restore reproduces. Entries are only added or replaced, never removed one by one: a
 * table is dropped whole when its slice expires, or emptied whole by {@link #clear} for reuse. Task thread only;
 * a snapshot may read a table from another thread once the task thread has promised not to change that key
 * group, or a copy of it (see {@link SliceStore}).
 *
 * <p>With a {@link Packing}, values are {@link io.millrace.api.functions.PackedAccumulator}s kept as
 * {@code width} longs per entry: {@link #value} then makes a new instance, {@link #valueInto} fills a given one,
 * and {@link #setValue} and {@link #add} copy the numbers of the value they are given.
 */
final class SliceTable {
    private static final int MIN_SLOTS = 8;

    /**
     * The key objects, only once some key is not a {@link Long}: while every key is one ({@link #longKeys}) the
     * table keeps the numbers alone ({@link #keyLongs}, and null entries here), so that a window's keys are not
     * objects that each young collection copies and each firing reads from wherever they were allocated.
     */
    private Object[] keys = new Object[MIN_SLOTS / 2];
    private int[] hashes = new int[MIN_SLOTS / 2];
    /** The values, unless packed; null when packed. */
    private Object[] values;
    private final Packing packing;
    /** The values, packed: {@code width} longs per entry; null unless packed. */
    private long[] packed;
    /**
     * The keys as numbers while every key is a {@link Long} ({@link #longKeys}), so that a lookup compares
     * primitives instead of loading each candidate's key object.
     */
    private long[] keyLongs = new long[MIN_SLOTS / 2];
    private boolean longKeys = true;
    /** The least and greatest key number while {@link #longKeys} (empty: {@code Long.MAX_VALUE} and {@code Long.MIN_VALUE}). */
    private long leastNumber = Long.MAX_VALUE;
    private long greatestNumber = Long.MIN_VALUE;
    private int size;
    /** The index from key to position ({@link SlotIndex}). */
    private long[] slots = new long[MIN_SLOTS];
    private int shift = SlotIndex.shift(MIN_SLOTS);

    SliceTable() {
        this((Packing) null);
    }

    /** A table whose values are packed by {@code packing}, or objects when it is null. */
    SliceTable(Packing packing) {
        this.packing = packing;
        if (packing == null) {
            values = new Object[MIN_SLOTS / 2];
        } else {
            packed = new long[MIN_SLOTS / 2 * packing.width];
        }
    }

    private SliceTable(SliceTable from) {
        packing = from.packing;
        keys = from.keys.clone();
        hashes = from.hashes.clone();
        values = from.values == null ? null : from.values.clone();
        packed = from.packed == null ? null : from.packed.clone();
        keyLongs = from.keyLongs.clone();
        longKeys = from.longKeys;
        leastNumber = from.leastNumber;
        greatestNumber = from.greatestNumber;
        size = from.size;
        slots = from.slots.clone();
        shift = from.shift;
    }

    /**
     * A copy that later changes to this table do not reach, when its values are packed or every value is
     * {@linkplain ImmutableClasses immutable} (keys always are); else null. Copies references and numbers only.
     */
    SliceTable copyIfImmutable() {
        for (int p = 0; packing == null && p < size; p++) {
            if (!ImmutableClasses.isImmutable(values[p])) {
                return null;
            }
        }
        return new SliceTable(this);
    }

    int size() {
        return size;
    }

    /**
     * The key at {@code position}: while every key is a {@link Long}, a new instance made from its number (the
     * table keeps no key objects then), else the stored key.
     */
    Object key(int position) {
        return longKeys ? Long.valueOf(keyLongs[position]) : keys[position];
    }

    /** Whether every key is a {@link Long}, so that {@link #keyNumber} holds. */
    boolean numericKeys() {
        return longKeys;
    }

    /** The value of the {@link Long} key at {@code position}; only while {@link #numericKeys}. */
    long keyNumber(int position) {
        return keyLongs[position];
    }

    /** The least key number; only while {@link #numericKeys} and not empty. */
    long leastNumber() {
        return leastNumber;
    }

    /** The greatest key number; only while {@link #numericKeys} and not empty. */
    long greatestNumber() {
        return greatestNumber;
    }

    /** The hashCode of the key at {@code position}, as given when it was added. */
    int hash(int position) {
        return hashes[position];
    }

    /**
     * Reads the keys and values at positions {@code [from, to)} ahead of their use ({@link ReadAhead}); returns
     * what {@link ReadAhead#headers} does.
     */
    int readAhead(int from, int to) {
        return (longKeys ? 0 : ReadAhead.headers(keys, from, to)) + (packing == null ? ReadAhead.headers(values, from, to) : 0);
    }

    /** The value at {@code position}; a new instance when packed (task thread only then). */
    Object value(int position) {
        return packing == null ? values[position] : packing.unpack(packed, position * packing.width, packing.newInstance());
    }

    /** The value at {@code position}: when packed, {@code into} set from its numbers, else the stored object. */
    Object valueInto(int position, Object into) {
        return packing == null ? values[position] : packing.unpack(packed, position * packing.width, into);
    }

    /** Number {@code i} of the packed value at {@code position}; only for a table that packs values. */
    long packedLong(int position, int i) {
        return packed[position * packing.width + i];
    }

    void setValue(int position, Object value) {
        if (packing == null) {
            values[position] = value;
        } else {
            packing.pack(value, packed, position * packing.width);
        }
    }

    /** The position of {@code key} (whose hashCode is {@code hash}), or -1. */
    int find(Object key, int hash) {
        if (longKeys) {
            return key instanceof Long boxed ? probe(null, hash, true, boxed) : -1;
        }
        return probe(key, hash, false, 0L);
    }

    /**
     * {@link #find}, given also the key's value when it is a {@link Long} ({@code numeric}): while every key is
     * one, the key object is not loaded.
     */
    int find(Object key, int hash, boolean numeric, long number) {
        return numeric && longKeys ? probe(null, hash, true, number) : find(key, hash);
    }

    /** The position of the {@link Long} key of value {@code number} and hashCode {@code hash}; only while {@link #numericKeys}. */
    int findNumber(int hash, long number) {
        return probe(null, hash, true, number);
    }

    /** {@link SlotIndex#find} over this table: by number ({@code byNumber}, only while {@link #longKeys}) or by key. */
    private int probe(Object key, int hash, boolean byNumber, long number) {
        return SlotIndex.find(slots, shift, hash, keyLongs, keys, key, byNumber, number);
    }

    /** The value of {@code key}, or null. */
    Object get(Object key, int hash) {
        int p = find(key, hash);
        return p < 0 ? null : value(p);
    }

    /** Appends an entry for a key that has none; returns its position. */
    int add(Object key, int hash, Object value) {
        return key instanceof Long boxed ? add(key, hash, true, boxed, value) : add(key, hash, false, 0L, value);
    }

    /**
     * {@link #add} of a value that a partial carries packed ({@link PartialAggregate#copyPacked}): its numbers are
     * copied, the accumulator object is not loaded. Only for a table that packs values as wide as the partial's.
     */
    int addPacked(Object key, int hash, boolean numeric, long number, PartialAggregate partial) {
        int p = append(key, hash, numeric, number);
        partial.copyPacked(packed, p * packing.width);
        return p;
    }

    /** {@link #add}, given whether the key is a {@link Long} and its value if so, without loading the key. */
    int add(Object key, int hash, boolean numeric, long number, Object value) {
        int p = append(key, hash, numeric, number);
        setValue(p, value);
        return p;
    }

    /** Appends an entry for a key that has none, its value not set yet; returns its position. */
    private int append(Object key, int hash, boolean numeric, long number) {
        if (size == keys.length) {
            int capacity = size * 2;
            keys = Arrays.copyOf(keys, capacity);
            hashes = Arrays.copyOf(hashes, capacity);
            if (packing == null) {
                values = Arrays.copyOf(values, capacity);
            } else {
                packed = Arrays.copyOf(packed, capacity * packing.width);
            }
            if (longKeys) {
                keyLongs = Arrays.copyOf(keyLongs, capacity);
            }
            rehash(capacity * 2);
        }
        int p = size++;
        hashes[p] = hash;
        if (longKeys && numeric) {
            keyLongs[p] = number;
            leastNumber = Math.min(leastNumber, number);
            greatestNumber = Math.max(greatestNumber, number);
        } else {
            if (longKeys) {
                keepKeyObjects(p);
            }
            keys[p] = key;
        }
        SlotIndex.put(slots, shift, hash, p);
        return p;
    }

    /** The first key that is not a {@link Long} arrives at {@code position}: the keys before it become objects. */
    private void keepKeyObjects(int position) {
        for (int i = 0; i < position; i++) {
            keys[i] = Long.valueOf(keyLongs[i]);
        }
        longKeys = false;
        keyLongs = new long[0];
    }

    /** Forgets every entry and keeps the capacity; costs the capacity. */
    void clear() {
        Arrays.fill(keys, 0, size, null);
        if (values != null) {
            Arrays.fill(values, 0, size, null);
        }
        Arrays.fill(slots, 0);
        size = 0;
        leastNumber = Long.MAX_VALUE;
        greatestNumber = Long.MIN_VALUE;
        if (!longKeys) {
            longKeys = true;
            keyLongs = new long[keys.length];
        }
    }

    private void rehash(int slotCount) {
        slots = SlotIndex.build(hashes, size, slotCount);
        shift = SlotIndex.shift(slotCount);
    }
}
