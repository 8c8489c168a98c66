package io.millrace.runtime.state.heap;

import io.millrace.runtime.state.ReadAhead;
import java.util.function.BiConsumer;

/**
 * The entries of one state in one key group: a chained hash table from key to value. Chained (rather
 * than {@link java.util.HashMap}) so that the TTL sweep can keep a plain slot cursor across calls
 * while the table changes, and so that TTL entries can carry their expiry inline. Single-threaded.
 */
final class KeyTable {
    private static final int MIN_CAPACITY = 4;

    private final boolean ttl;
    private Entry[] slots = new Entry[0];
    private int size;
    /**
     * Whether every key is a {@link Long}: entries are then {@link LongEntry}s, which keep the key as a number
     * only, and a lookup compares numbers.
     */
    private boolean longKeys = true;

    KeyTable(boolean ttl) {
        this.ttl = ttl;
    }

    /** One key's value; {@code expiry} is meaningful only in TTL tables. */
    static class Entry {
        /** The key; null in a {@link LongEntry}, which keeps the key's value instead (see {@link #key()}). */
        private final Object key;
        final int hash;
        Object value;
        Entry next;

        Entry(Object key, int hash, Object value) {
            this.key = key;
            this.hash = hash;
            this.value = value;
        }

        /** The key (a {@link LongEntry}'s comes back boxed: equal, not the instance it was inserted with). */
        Object key() {
            return key;
        }

        long expiry() {
            return Long.MAX_VALUE;
        }

        void expiry(long time) {
            throw new IllegalStateException("not a TTL entry");
        }
    }

    /** An entry of a TTL-enabled state: the only kind that pays for a timestamp. */
    static final class TtlEntry extends Entry {
        private long expiry;

        TtlEntry(Object key, int hash, Object value, long expiry) {
            super(key, hash, value);
            this.expiry = expiry;
        }

        @Override
        long expiry() {
            return expiry;
        }

        @Override
        void expiry(long time) {
            this.expiry = time;
        }
    }

    /**
     * An entry whose key is a {@link Long}, kept as its value only: one object per key instead of two, for the
     * young collections that copy new keys and for the heap a key costs.
     */
    static class LongEntry extends Entry {
        final long longKey;

        LongEntry(long key, int hash, Object value) {
            super(null, hash, value);
            this.longKey = key;
        }

        @Override
        Object key() {
            return longKey;
        }
    }

    /** A TTL entry whose key is a {@link Long}. */
    static final class LongTtlEntry extends LongEntry {
        private long expiry;

        LongTtlEntry(long key, int hash, Object value, long expiry) {
            super(key, hash, value);
            this.expiry = expiry;
        }

        @Override
        long expiry() {
            return expiry;
        }

        @Override
        void expiry(long time) {
            this.expiry = time;
        }
    }

    int size() {
        return size;
    }

    int capacity() {
        return slots.length;
    }

    /**
     * Reads ahead ({@link ReadAhead}) what a lookup of {@code hash} will touch: its slot, the first entry there and
     * that entry's value. Returns 0.
     */
    int readAhead(int hash) {
        Entry[] s = slots;
        if (s.length == 0) {
            return 0;
        }
        Entry e = s[index(hash, s.length)];
        return e == null ? 0 : ReadAhead.header(e.value);
    }

    /** The entry of {@code key} (with {@code hash == key.hashCode()}), or null. */
    Entry find(Object key, int hash) {
        Entry[] s = slots;
        if (s.length == 0) {
            return null;
        }
        Entry e = s[index(hash, s.length)];
        if (longKeys && key instanceof Long boxed) {
            long v = boxed;
            for (; e != null; e = e.next) {
                if (e.hash == hash && ((LongEntry) e).longKey == v) {
                    return e;
                }
            }
            return null;
        }
        for (; e != null; e = e.next) {
            if (e.hash == hash) {
                Object k = e.key();
                if (k == key || k.equals(key)) {
                    return e;
                }
            }
        }
        return null;
    }

    /** Adds an entry for a key that has none. */
    Entry insert(Object key, int hash, Object value, long expiry) {
        if (size >= slots.length - (slots.length >>> 2)) {
            resize(Math.max(MIN_CAPACITY, slots.length * 2));
        }
        Entry e;
        if (longKeys && key instanceof Long boxed) {
            e = ttl ? new LongTtlEntry(boxed, hash, value, expiry) : new LongEntry(boxed, hash, value);
        } else {
            longKeys = false;
            e = ttl ? new TtlEntry(key, hash, value, expiry) : new Entry(key, hash, value);
        }
        int i = index(hash, slots.length);
        e.next = slots[i];
        slots[i] = e;
        size++;
        return e;
    }

    /** Removes the entry of {@code key}; returns its value or null when absent. */
    Object remove(Object key, int hash) {
        if (slots.length == 0) {
            return null;
        }
        int i = index(hash, slots.length);
        Entry prev = null;
        boolean longProbe = longKeys && key instanceof Long;
        long v = longProbe ? (Long) key : 0;
        for (Entry e = slots[i]; e != null; prev = e, e = e.next) {
            if (e.hash == hash && (longProbe ? ((LongEntry) e).longKey == v : e.key().equals(key))) {
                unlink(i, prev, e);
                shrinkIfSparse();
                return e.value;
            }
        }
        return null;
    }

    /**
     * Removes the entries of slot {@code slot} that {@code expired} says are dead; returns the number
     * of entries visited. The slot index stays valid as a cursor across resizes (it may then revisit or
     * skip a few entries, which a sweep tolerates).
     */
    int sweepSlot(int slot, long now, ExpiryCheck expired) {
        if (slot >= slots.length) {
            return 0;
        }
        int visited = 0;
        Entry prev = null;
        Entry e = slots[slot];
        while (e != null) {
            Entry next = e.next;
            visited++;
            if (expired.isDead(e, now)) {
                unlink(slot, prev, e);
            } else {
                prev = e;
            }
            e = next;
        }
        shrinkIfSparse();
        return visited;
    }

    /** Visits every entry as (key, stored value); the action must not change the table. */
    void forEach(BiConsumer<Object, Object> action) {
        for (Entry head : slots) {
            for (Entry e = head; e != null; e = e.next) {
                action.accept(e.key(), e.value);
            }
        }
    }

    /** The slots and their chains, for a snapshot to walk; callers must not change them. */
    Entry[] slots() {
        return slots;
    }

    /** Decides during a sweep whether an entry is dead; may prune the entry's value in place. */
    interface ExpiryCheck {
        boolean isDead(Entry entry, long now);
    }

    private void unlink(int slot, Entry prev, Entry e) {
        if (prev == null) {
            slots[slot] = e.next;
        } else {
            prev.next = e.next;
        }
        e.next = null;
        size--;
    }

    /** Gives memory back once most keys are gone, so a burst of transient keys leaves no large table. */
    private void shrinkIfSparse() {
        if (size == 0) {
            slots = new Entry[0];
            longKeys = true;
        } else if (slots.length > 64 && size < slots.length >>> 3) {
            resize(slots.length >>> 1);
        }
    }

    private void resize(int capacity) {
        Entry[] old = slots;
        Entry[] fresh = new Entry[capacity];
        for (Entry head : old) {
            Entry e = head;
            while (e != null) {
                Entry next = e.next;
                int i = index(e.hash, capacity);
                e.next = fresh[i];
                fresh[i] = e;
                e = next;
            }
        }
        slots = fresh;
    }

    /**
     * Fibonacci hashing on the high bits: the key group was chosen from a murmur mix of the same hash,
     * so the slot must not depend on the same low bits, or a group's keys would share slots.
     */
    private static int index(int hash, int capacity) {
        return (hash * 0x9E3779B9) >>> (32 - Integer.numberOfTrailingZeros(capacity));
    }
}
