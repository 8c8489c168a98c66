package io.millrace.runtime.state.heap;

import io.millrace.runtime.state.ReadAhead;
import io.millrace.runtime.state.SlotIndex;
import java.util.Arrays;
import java.util.function.BiConsumer;

/**
 * The entries of one state in one key group: keys, values and (with TTL) expiry times in parallel arrays, dense
 * by position, found through an open-addressing index. No object per entry: a young collection copies the values
 * a state gained since the last one and nothing for their entries, and a lookup reads the index, the key and the value, not an entry object in between.
 *
 * <p>While every key is a {@link Long}, keys are kept as numbers only and compared as such; the first key of
 * another kind switches the table to objects and {@code equals} (an {@code Integer} 5 is not the {@code Long} 5),
 * and an emptied table starts over. A removal moves the last entry into the freed position, so positions are
 * valid until the next change of the table.
 *
 * <p>With an {@link ArenaCodec} ({@code state.heap.values: serialized}) the values are not kept as objects but
 * encoded in a {@link ValueArena} of this table, found by handle: a read decodes a fresh copy, a write encodes
 * the value given, and young collections copy none of it. Single-threaded.
 */
final class KeyTable {
    private static final int MIN_CAPACITY = 4;
    private static final long[] NO_LONGS = new long[0];
    private static final Object[] NO_OBJECTS = new Object[0];
    private static final int[] NO_INTS = new int[0];

    private final boolean ttl;
    /** The keys while {@link #longKeys}, else unused. */
    private long[] numbers = NO_LONGS;
    /** The keys once one is not a {@code Long}, else unused. */
    private Object[] keys = NO_OBJECTS;
    private int[] hashes = NO_INTS;
    private Object[] values = NO_OBJECTS;
    /** With an arena: where each entry's value is in it (in place of {@link #values}). */
    private long[] handles = NO_LONGS;
    /** The values' bytes, or null when values are kept as objects. */
    private ValueArena arena;
    /** Expiry per entry in TTL tables, else unused. */
    private long[] expiries = NO_LONGS;
    private int size;
    private boolean longKeys = true;
    /** The index from key to position ({@link SlotIndex}); empty while the table is. */
    private long[] slots = NO_LONGS;
    private int shift = 32;

    KeyTable(boolean ttl) {
        this(ttl, null, false);
    }

    /** A table whose values {@code codec} encodes into an arena (null: values kept as objects); {@code lists} for list state. */
    KeyTable(boolean ttl, ArenaCodec codec, boolean lists) {
        this.ttl = ttl;
        this.arena = codec == null ? null : new ValueArena(codec, lists);
    }

    /** Whether values are kept encoded in an arena rather than as objects. */
    boolean serialized() {
        return arena != null;
    }

    int size() {
        return size;
    }

    /** The key at {@code position} (a Long kept as a number comes back boxed: equal, not the instance given). */
    Object key(int position) {
        return longKeys ? Long.valueOf(numbers[position]) : keys[position];
    }

    /** The value at {@code position}: the stored object, or with an arena a copy decoded now. */
    Object value(int position) {
        return arena == null ? values[position] : arena.read(handles[position]);
    }

    /** Replaces the value at {@code position} (with an arena: encodes it, and the old bytes are dead). */
    void setValue(int position, Object value) {
        if (arena == null) {
            values[position] = value;
            return;
        }
        long old = handles[position];
        handles[position] = arena.write(value);
        arena.free(old);
        compactIfWasteful();
    }

    /** List arenas: adds {@code element} to the end of the list at {@code position}, writing only the element. */
    void appendElement(int position, Object element) {
        handles[position] = arena.append(handles[position], element);
    }

    /** The values {@code [0, n)} as they are now, for a snapshot to decode later on any thread. Arena tables only. */
    ValueArena.Frozen freezeValues(int n) {
        return arena.freeze(handles, n);
    }

    /** Whether every stored value is {@linkplain ImmutableClasses immutable} (list tables: every element). */
    boolean valuesImmutable() {
        for (int p = 0; p < size; p++) {
            if (!immutableValue(value(p))) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code value}, as a table stores it (a list table: an element or {@link HeapListState.Elements}), is immutable. */
    static boolean immutableValue(Object value) {
        if (value instanceof HeapListState.Elements e) {
            for (Object element : e) {
                if (!ImmutableClasses.isImmutable(element)) {
                    return false;
                }
            }
            return true;
        }
        return ImmutableClasses.isImmutable(value);
    }

    /** Values encoded into an arena of their own, not yet the table's ({@link #encodeValues}, {@link #adopt}). */
    record Encoded(ValueArena arena, long[] handles) {}

    /**
     * This table's values encoded into a fresh arena of {@code codec}, the table unchanged; a value the codec
     * cannot encode fails here and leaves nothing behind. Tables keeping objects only.
     */
    Encoded encodeValues(ArenaCodec codec, boolean lists) {
        ValueArena a = new ValueArena(codec, lists);
        long[] h = new long[hashes.length];
        for (int p = 0; p < size; p++) {
            h[p] = a.write(values[p]);
        }
        return new Encoded(a, h);
    }

    /** Keeps the values {@link #encodeValues} encoded (the table unchanged since) in place of the objects. */
    void adopt(Encoded encoded) {
        arena = encoded.arena();
        handles = encoded.handles();
        values = NO_OBJECTS;
    }

    /** Decodes every value back into an object and drops the arena: the table keeps objects from now on. */
    void decodeValues() {
        Object[] v = hashes.length == 0 ? NO_OBJECTS : new Object[hashes.length];
        for (int p = 0; p < size; p++) {
            v[p] = arena.read(handles[p]);
        }
        values = v;
        handles = NO_LONGS;
        arena = null;
    }

    /** The arena, for tests; null when values are objects. */
    ValueArena arena() {
        return arena;
    }

    /** The entry's expiry time; {@code Long.MAX_VALUE} in a table without TTL. */
    long expiry(int position) {
        return ttl ? expiries[position] : Long.MAX_VALUE;
    }

    void expiry(int position, long time) {
        if (!ttl) {
            throw new IllegalStateException("not a TTL table");
        }
        expiries[position] = time;
    }

    /**
     * Reads ahead ({@link ReadAhead}) what a lookup of {@code hash} will touch: its slot and, on a hash match, the
     * value there. Returns 0.
     */
    int readAhead(int hash) {
        long[] s = slots;
        if (s.length == 0 || arena != null) {
            return 0;
        }
        long slot = s[index(hash)];
        return slot != 0 && (int) (slot >>> 32) == hash ? ReadAhead.header(values[(int) slot - 1]) : 0;
    }

    /** The position of {@code key} (with {@code hash == key.hashCode()}), or -1. */
    int find(Object key, int hash) {
        if (slots.length == 0) {
            return -1;
        }
        if (longKeys) {
            // a key of another kind cannot be in a table of Long keys
            return key instanceof Long boxed ? SlotIndex.find(slots, shift, hash, numbers, null, null, true, boxed) : -1;
        }
        return SlotIndex.find(slots, shift, hash, null, keys, key, false, 0L);
    }

    /** Adds an entry for a key that has none; returns its position. */
    int insert(Object key, int hash, Object value, long expiry) {
        long handle = arena == null ? 0 : arena.write(value); // first: a value that cannot be encoded leaves no entry
        if (size == hashes.length) {
            grow(Math.max(MIN_CAPACITY, size * 2));
        }
        if (longKeys && !(key instanceof Long)) {
            keys = new Object[hashes.length];
            for (int p = 0; p < size; p++) {
                keys[p] = numbers[p];
            }
            numbers = NO_LONGS;
            longKeys = false;
        }
        int p = size++;
        if (longKeys) {
            numbers[p] = (Long) key;
        } else {
            keys[p] = key;
        }
        hashes[p] = hash;
        if (arena == null) {
            values[p] = value;
        } else {
            handles[p] = handle;
        }
        if (ttl) {
            expiries[p] = expiry;
        }
        place(p);
        return p;
    }

    /** Removes the entry of {@code key}; returns whether there was one. */
    boolean remove(Object key, int hash) {
        int p = find(key, hash);
        if (p < 0) {
            return false;
        }
        removeAt(p);
        return true;
    }

    /**
     * Looks at the entry at {@code position} and removes it when {@code expired} says it is dead; returns whether
     * it did (the last entry then sits at {@code position}). A position past the end is ignored. The position works
     * as a sweep cursor across changes: a removal moves the last entry to the cursor and a sweep may skip or
     * revisit a few entries, which it tolerates.
     */
    boolean sweepAt(int position, long now, ExpiryCheck expired) {
        if (position >= size || !expired.isDead(this, position, now)) {
            return false;
        }
        removeAt(position);
        return true;
    }

    /** Visits every entry as (key, stored value), in position order; the action must not change the table. */
    void forEach(BiConsumer<Object, Object> action) {
        for (int p = 0; p < size; p++) {
            action.accept(key(p), value(p));
        }
    }

    /** Decides during a sweep whether an entry is dead; may prune the entry's value in place. */
    interface ExpiryCheck {
        boolean isDead(KeyTable table, int position, long now);
    }

    /** The keys while every key is a Long (a copy of the first {@code n}), else null: for snapshots. */
    long[] copyLongKeys(int n) {
        return longKeys ? Arrays.copyOf(numbers, n) : null;
    }

    /** A copy of the first {@code n} keys as objects, for snapshots (Long keys boxed here). */
    Object[] copyKeys(int n) {
        if (!longKeys) {
            return Arrays.copyOf(keys, n);
        }
        Object[] out = new Object[n];
        for (int p = 0; p < n; p++) {
            out[p] = numbers[p];
        }
        return out;
    }

    private void removeAt(int p) {
        if (arena != null) {
            arena.free(handles[p]);
        }
        deleteSlot(slotOf(p));
        int last = --size;
        if (p != last) {
            if (longKeys) {
                numbers[p] = numbers[last];
            } else {
                keys[p] = keys[last];
            }
            hashes[p] = hashes[last];
            if (arena == null) {
                values[p] = values[last];
            } else {
                handles[p] = handles[last];
            }
            if (ttl) {
                expiries[p] = expiries[last];
            }
            slots[slotOf(last)] = SlotIndex.slot(hashes[p], p);
        }
        if (!longKeys) {
            keys[last] = null;
        }
        if (arena == null) {
            values[last] = null;
        } else {
            handles[last] = 0;
        }
        shrinkIfSparse();
        compactIfWasteful();
    }

    /** Copies the live values into a fresh arena once dead bytes outweigh them (see {@link ValueArena#wantsCompaction}). */
    private void compactIfWasteful() {
        if (arena != null && arena.wantsCompaction()) {
            arena = arena.compact(handles, size);
        }
    }

    /** The slot that points at position {@code p}. */
    private int slotOf(int p) {
        int mask = slots.length - 1;
        long want = p + 1;
        int i = index(hashes[p]);
        while ((slots[i] & 0xFFFF_FFFFL) != want) {
            i = (i + 1) & mask;
        }
        return i;
    }

    /** Frees slot {@code gap}, moving later slots of its run back so that every key stays reachable from its home. */
    private void deleteSlot(int gap) {
        long[] s = slots;
        int mask = s.length - 1;
        for (int i = (gap + 1) & mask; s[i] != 0; i = (i + 1) & mask) {
            int home = index((int) (s[i] >>> 32));
            if (((i - home) & mask) >= ((i - gap) & mask)) {
                s[gap] = s[i];
                gap = i;
            }
        }
        s[gap] = 0;
    }

    private void place(int p) {
        if (2 * size > slots.length) {
            rehash(Math.max(2 * MIN_CAPACITY, slots.length * 2));
        } else {
            SlotIndex.put(slots, shift, hashes[p], p);
        }
    }

    private void grow(int capacity) {
        if (longKeys) {
            numbers = Arrays.copyOf(numbers, capacity);
        } else {
            keys = Arrays.copyOf(keys, capacity);
        }
        hashes = Arrays.copyOf(hashes, capacity);
        if (arena == null) {
            values = Arrays.copyOf(values, capacity);
        } else {
            handles = Arrays.copyOf(handles, capacity);
        }
        if (ttl) {
            expiries = Arrays.copyOf(expiries, capacity);
        }
    }

    /** Gives memory back once most keys are gone, so a burst of transient keys leaves no large table. */
    private void shrinkIfSparse() {
        if (size == 0) {
            numbers = NO_LONGS;
            keys = NO_OBJECTS;
            hashes = NO_INTS;
            values = NO_OBJECTS;
            handles = NO_LONGS;
            if (arena != null) {
                arena = arena.empty();
            }
            expiries = NO_LONGS;
            slots = NO_LONGS;
            shift = 32;
            longKeys = true;
        } else if (hashes.length > 64 && size < hashes.length >>> 3) {
            grow(hashes.length >>> 1);
            rehash(slots.length >>> 1);
        }
    }

    private void rehash(int slotCount) {
        slots = SlotIndex.build(hashes, size, slotCount);
        shift = SlotIndex.shift(slotCount);
    }

    /** The home slot of {@code hash} (only while there are slots: an empty table's shift of 32 is no shift). */
    private int index(int hash) {
        return SlotIndex.home(hash, shift);
    }
}
