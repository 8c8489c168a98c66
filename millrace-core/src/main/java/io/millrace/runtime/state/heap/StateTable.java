package io.millrace.runtime.state.heap;

import io.millrace.api.state.StateTtlConfig;
import java.util.function.BiConsumer;

/**
 * The storage of one named state: one {@link KeyTable} per owned key group, indexed by
 * {@code keyGroup - range.start()}, so that a snapshot or a rescale can take or restore one group at
 * a time. Accesses are for the backend's current key. With TTL, entries carry an expiry; an expired
 * entry is removed when touched, and an incremental sweep (a cursor over the groups and their slots)
 * removes the ones nobody touches again. Task thread only.
 */
class StateTable implements KeyTable.ExpiryCheck {
    /** Slots the sweep visits on each access of a TTL state. */
    static final int ACCESS_SWEEP_STEPS = 4;
    /** Slots the sweep visits per TTL state on each processing-time tick. */
    static final int TICK_SWEEP_STEPS = 4096;

    final String name;
    final HeapKeyedStateBackend backend;
    private final KeyTable[] groups;
    /** Time to live in ms, 0 without TTL. */
    final long ttlMillis;
    final boolean refreshOnRead;
    /** Whether whole entries expire (false for map state, whose entries expire one by one inside). */
    private final boolean entryTtl;
    /** Whether values are kept encoded rather than as objects ({@code state.heap.values: serialized}, or auto's choice now). */
    private boolean serialized;
    private int sweepGroup;
    private int sweepPosition;
    /** With {@code state.heap.values: auto}: when and how this state changes between objects and encoded values; else null. */
    private final AutoValues auto;
    /** Whether this table's values are lists (elements and chains of them). */
    private final boolean lists;

    StateTable(String name, HeapKeyedStateBackend backend, StateTtlConfig ttl, boolean entryTtl) {
        this(name, backend, ttl, entryTtl, false, false);
    }

    /**
     * With {@code serialized}, values are kept encoded ({@link ValueArena}), not as objects; {@code lists} marks
     * a list state's table, whose values are then chains of elements.
     */
    StateTable(String name, HeapKeyedStateBackend backend, StateTtlConfig ttl, boolean entryTtl, boolean serialized, boolean lists) {
        this(name, backend, ttl, entryTtl, serialized, lists, null);
    }

    /** With {@code auto} non-null ({@code state.heap.values: auto}), values start as objects and {@code auto} decides when that changes. */
    StateTable(String name, HeapKeyedStateBackend backend, StateTtlConfig ttl, boolean entryTtl, boolean serialized, boolean lists,
            AutoValues auto) {
        this.name = name;
        this.lists = lists;
        this.auto = auto;
        this.backend = backend;
        this.ttlMillis = ttl.enabled() ? ttl.ttlMillis() : 0;
        this.refreshOnRead = ttl.enabled() && ttl.updateType() == StateTtlConfig.UpdateType.ON_READ_AND_WRITE;
        this.entryTtl = entryTtl && ttl.enabled();
        this.groups = new KeyTable[backend.keyGroupRange().size()];
        ArenaCodec codec = serialized ? new ArenaCodec(name) : null;
        this.serialized = serialized;
        for (int i = 0; i < groups.length; i++) {
            groups[i] = new KeyTable(this.entryTtl, codec, lists);
        }
    }

    final boolean hasTtl() {
        return ttlMillis != 0;
    }

    /** The current key's value for reading, or null when absent or expired. */
    final Object get() {
        int p = entry(false);
        if (p < 0) {
            return null;
        }
        if (auto != null) {
            auto.access(this, true);
        }
        return groups[backend.groupIndex].value(p);
    }

    /**
     * The position of the current key's live entry in its group's table, or -1; valid until the table changes
     * (read and write it with {@link #value} and {@link #setValue}). With {@code write} (the caller is about to
     * change the value in place) or with TTL refreshed on read, the entry's expiry restarts.
     */
    final int entry(boolean write) {
        HeapKeyedStateBackend b = backend;
        Object key = b.requireKey(this);
        KeyTable table = groups[b.groupIndex];
        if (ttlMillis == 0) {
            return table.find(key, b.keyHash());
        }
        long now = b.clock.millis();
        sweep(now, ACCESS_SWEEP_STEPS);
        int p = table.find(key, b.keyHash());
        if (p < 0 || !entryTtl) {
            return p;
        }
        if (table.expiry(p) <= now) {
            table.remove(key, b.keyHash());
            return -1;
        }
        if (write || refreshOnRead) {
            table.expiry(p, now + ttlMillis);
        }
        return p;
    }

    /** The value at position {@code p} (from {@link #entry}) of the current key's group. */
    final Object value(int p) {
        if (auto != null) {
            auto.access(this, false); // the caller may change the object read in place: no encoding here
        }
        return groups[backend.groupIndex].value(p);
    }

    /** Replaces the value at position {@code p} (from {@link #entry}) of the current key's group. */
    final void setValue(int p, Object value) {
        if (auto != null) {
            auto.access(this, true); // may encode the state: the value is looked at after
            if (serialized && !KeyTable.immutableValue(value)) {
                auto.refuse(this, value, "can change in place"); // back to objects, positions unchanged
            } else if (serialized) {
                try {
                    groups[backend.groupIndex].setValue(p, value);
                    return;
                } catch (IllegalArgumentException cannotEncode) {
                    auto.refuseUnencodable(this, value, cannotEncode); // then as an object
                }
            }
        }
        groups[backend.groupIndex].setValue(p, value);
    }

    /**
     * List state kept as objects: the list at position {@code p} of the current key's group, to append to. Not a
     * read for {@code state.heap.values: auto}: appending costs the same either way.
     */
    final Object valueToAppendTo(int p) {
        return groups[backend.groupIndex].value(p);
    }

    /** List state kept as objects: the list at position {@code p} with an element appended, stored (not a replacement for auto). */
    final void appendedValue(int p, Object list) {
        groups[backend.groupIndex].setValue(p, list);
    }

    /** Whether values are kept encoded: a value read is a copy, and changing it changes nothing stored. */
    final boolean serialized() {
        return serialized;
    }

    /**
     * List state kept encoded: adds {@code element} to the list at position {@code p} of the current key's group.
     * Returns false, adding nothing, when the state went back to objects instead (auto: a mutable element); the
     * caller then adds it as to objects.
     */
    final boolean appendElement(int p, Object element) {
        if (auto == null) {
            groups[backend.groupIndex].appendElement(p, element);
            return true;
        }
        if (!ImmutableClasses.isImmutable(element)) {
            auto.refuse(this, element, "can change in place");
            return false;
        }
        try {
            groups[backend.groupIndex].appendElement(p, element);
            return true;
        } catch (IllegalArgumentException cannotEncode) {
            auto.refuseUnencodable(this, element, cannotEncode);
            return false;
        }
    }

    /** Sets the current key's value (a write). */
    final void put(Object value) {
        int p = entry(true);
        if (p < 0) {
            insert(value);
        } else {
            setValue(p, value);
        }
    }

    /** Adds an entry for the current key, which must have none (callers checked with {@link #entry}); returns its position. */
    final int insert(Object value) {
        if (auto != null) {
            auto.insert(this, value); // may change how values are kept: before the entry goes in
        }
        HeapKeyedStateBackend b = backend;
        long expiry = entryTtl ? b.clock.millis() + ttlMillis : Long.MAX_VALUE;
        if (auto != null && serialized) {
            try {
                return groups[b.groupIndex].insert(b.requireKey(this), b.keyHash(), value, expiry);
            } catch (IllegalArgumentException cannotEncode) {
                // an immutable value the codec refuses: the state keeps objects from now on, this one included
                auto.refuseUnencodable(this, value, cannotEncode);
            }
        }
        return groups[b.groupIndex].insert(b.requireKey(this), b.keyHash(), value, expiry);
    }

    /** Reads ahead the entry of a key of hash {@code hash} in the group of index {@code groupIndex}; returns 0. */
    final int readAhead(int groupIndex, int hash) {
        return groups[groupIndex].readAhead(hash);
    }

    /** Removes the current key's entry, if any. */
    final void remove() {
        HeapKeyedStateBackend b = backend;
        groups[b.groupIndex].remove(b.requireKey(this), b.keyHash());
    }

    /** Entries over all groups, live or expired but not yet swept. */
    final long size() {
        long n = 0;
        for (KeyTable t : groups) {
            n += t.size();
        }
        return n;
    }

    /** Visits the stored (key, value) pairs of one owned key group: the unit of snapshots and rescaling. */
    final void forEachInGroup(int keyGroup, BiConsumer<Object, Object> action) {
        groups[keyGroup - backend.keyGroupRange().start()].forEach(action);
    }

    /** The entries of one owned key group, for snapshots. */
    final KeyTable group(int keyGroup) {
        return groups[keyGroup - backend.keyGroupRange().start()];
    }

    /** Whether whole entries carry an expiry (TTL, except for map state whose user entries carry it). */
    final boolean entryTtl() {
        return entryTtl;
    }

    /**
     * Adds a restored entry to an owned key group; {@code expiry} is used only when entries carry one.
     * The key must not be present yet (a key group is restored once, before the operator runs).
     */
    final void restore(int keyGroup, Object key, Object value, long expiry) {
        group(keyGroup).insert(key, key.hashCode(), value, expiry);
    }

    /** Looks at up to about {@code steps} entries from the cursor, removing expired ones. */
    final void sweep(long now, int steps) {
        int done = 0;
        while (done < steps) {
            KeyTable t = groups[sweepGroup];
            backend.beforeChange(sweepGroup);
            if (sweepPosition >= t.size()) {
                sweepGroup = sweepGroup + 1 == groups.length ? 0 : sweepGroup + 1;
                sweepPosition = 0;
            } else if (!t.sweepAt(sweepPosition, now, this)) {
                sweepPosition++; // a removed entry's place now holds the table's last entry: look at it next
            }
            done++;
        }
    }

    /**
     * Encodes every group's values with {@code codec}; returns false, changing nothing, when a value is not
     * {@linkplain ImmutableClasses immutable} or cannot be encoded. Values kept as objects only.
     */
    final boolean encodeAll(ArenaCodec codec) {
        for (KeyTable group : groups) {
            if (!group.valuesImmutable()) {
                return false;
            }
        }
        KeyTable.Encoded[] encoded = new KeyTable.Encoded[groups.length];
        try {
            for (int i = 0; i < groups.length; i++) {
                encoded[i] = groups[i].encodeValues(codec, lists);
            }
        } catch (RuntimeException e) {
            return false;
        }
        for (int i = 0; i < groups.length; i++) {
            backend.beforeChange(i); // a pending snapshot captures the group as it was
            groups[i].adopt(encoded[i]);
        }
        serialized = true;
        return true;
    }

    /** Decodes every group's values back into objects. Values kept encoded only. */
    final void decodeAll() {
        for (int i = 0; i < groups.length; i++) {
            backend.beforeChange(i);
            groups[i].decodeValues();
        }
        serialized = false;
    }

    @Override
    public boolean isDead(KeyTable table, int position, long now) {
        return table.expiry(position) <= now;
    }
}
