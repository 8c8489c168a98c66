package io.millrace.rocksdb;

import java.util.Arrays;
import org.rocksdb.WriteBatch;

/**
 * A write-back cache of deserialized values in front of RocksDB, one per backend, like the caching layer of
 * Kafka Streams: a bounded table from (state, row key) to the value object, its expiry (TTL states) and a
 * dirty flag, for the single-row states (value, reducing, aggregating, list without TTL) and the rows of
 * namespaced states (window contents). Reads are served from it (a miss reads RocksDB once and caches the value, or its
 * absence); writes and deletes only change the entry and mark it dirty. When the table is full, a CLOCK
 * sweep evicts a batch of the entries not used since its last pass, and the dirty ones among them reach
 * RocksDB in one {@link WriteBatch} ({@link WriteBackBatch}). {@link #flush} writes every dirty entry back, keeping the entries: the
 * backend calls it before anything reads RocksDB past the cache (snapshots, native checkpoints,
 * whole-state scans, compaction), so those see every write.
 *
 * <p>The rows of one (namespaced state, key) are <em>members</em> chained to an <em>anchor</em> entry
 * (row key = the key's bytes, no value), so that visiting a key's namespaces finds the cached ones that
 * RocksDB does not hold yet. An anchor with members is never evicted; its members go first.
 *
 * <p>Eviction spares, while other entries are left, the entries of the current key, so that a value handed
 * out while processing a record stays the cached object until the record is done. Values are cached by
 * reference: a state hands out the cached object itself, as the heap backend does, and a write-back
 * serializes it as it is then. Task thread only.
 */
final class StateCache {
    /** The fewest entries a cache may have (an insert may need a member and its anchor, both kept). */
    static final int MIN_ENTRIES = 16;

    /** One cached row; {@code column == null} while the entry is free. */
    static final class Entry {
        StateColumn column;
        /**
         * The row key, whose bytes never change while cached. For single-row states and anchors it is the
         * backend's key bytes, and the states replace it by the current key's array (equal bytes) when they
         * use the entry, so that the entries of the current key are recognized by reference.
         */
        byte[] key;
        int hash;
        /** The value, or null: absent in RocksDB, deleted, or expired. */
        Object value;
        /** When the value expires (TTL states only). */
        long expiry;
        /** Whether RocksDB does not hold {@link #value} (and {@link #expiry}) yet. */
        boolean dirty;
        /**
         * Whether RocksDB may hold a row for the key: false only when known to hold none (a miss found none,
         * or a delete was written back), so that deleting a row that never reached RocksDB writes nothing.
         */
        boolean stored;
        /** Used since the CLOCK hand last passed. */
        boolean referenced;
        /** Members: the namespace, their anchor and neighbours in its chain. Anchors: the first member and the count. */
        Object namespace;
        Entry anchor;
        Entry previous;
        Entry next;
        int members;
        /**
         * Anchors: whether every row RocksDB holds for the key is one of the members, so that a missing
         * member means no row (no read needed). Lost when a member RocksDB holds is evicted.
         */
        boolean complete;
        /** The visit ({@link #nextVisit}) that last saw this member in RocksDB. */
        int seen;
        /** The count of changes ({@link #markDirty}) when this entry last changed. */
        int changed;
        /** Neighbours in the list of dirty entries ({@link DirtyEntries}); null while clean. */
        Entry dirtyPrevious;
        Entry dirtyNext;
    }

    private final RocksDbKeyedStateBackend backend;
    private final int capacity;
    private final int evictBatch;
    /** Dirty entries past which some are written back ahead of time, so that a snapshot's flush stays short. */
    private final int dirtyLimit;
    private final int cleanBatch;
    /** The dirty entries, oldest first (an entry found still changing when its turn came goes to the back). */
    private final DirtyEntries dirty = new DirtyEntries();
    /** Dirty entries at which the next write-back ahead of time starts (at least {@link #dirtyLimit}). */
    private int nextClean;
    /** Changes so far ({@link #markDirty} calls), the clock of {@link Entry#changed}. */
    private int changes;
    /** Entries by index; indices below {@link #allocated} have been handed out. Grows up to the capacity. */
    private Entry[] pool = new Entry[64];
    private int allocated;
    /** Indices below {@link #allocated} of free entries, a stack. */
    private int[] free = new int[64];
    private int freeCount;
    /** Open addressing, linear probing: pool index + 1, 0 = empty; at most half full (doubled as it fills). */
    private int[] table = new int[128];
    /** The hash of the entry in each slot of {@link #table}, so that probing passes other rows without touching them. */
    private int[] hashes = new int[128];
    private int mask = 127;
    private int size;
    private int hand;
    private int visits;
    /** Rows written back and not yet in RocksDB: written by each eviction, flush and write-back ahead of time. */
    private final WriteBackBatch writes;
    private long writeBacks;

    /** A cache of {@code capacity} entries (at least {@link #MIN_ENTRIES}) for {@code backend}. */
    StateCache(RocksDbKeyedStateBackend backend, int capacity) {
        if (capacity < MIN_ENTRIES) {
            throw new IllegalArgumentException("a state cache needs at least " + MIN_ENTRIES + " entries, was " + capacity);
        }
        this.backend = backend;
        this.capacity = capacity;
        this.evictBatch = Math.max(1, Math.min(1024, capacity / 16));
        this.dirtyLimit = Math.max(1, capacity / 8);
        this.cleanBatch = Math.max(1, Math.min(1024, dirtyLimit / 4));
        this.nextClean = dirtyLimit;
        this.writes = new WriteBackBatch(backend);
    }

    /** The hash of a row of {@code column} whose row key hashes to {@code keyHash} ({@link #hashBytes}). */
    static int hash(int keyHash, StateColumn column) {
        int h = (keyHash + column.id * 0x61C88647) * 0x9E3779B9;
        return h ^ (h >>> 15);
    }

    /** The hash of {@code bytes[0, length)}, as {@link Arrays#hashCode(byte[])} of those bytes. */
    static int hashBytes(byte[] bytes, int length) {
        int h = 1;
        for (int i = 0; i < length; i++) {
            h = 31 * h + bytes[i];
        }
        return h;
    }

    int size() {
        return size;
    }

    /** Entries written to RocksDB so far (evicted or flushed while dirty); for tests and metrics. */
    long writeBacks() {
        return writeBacks;
    }

    /** Dirty entries now; at most about an eighth of the capacity beyond the current key's. */
    int dirtyCount() {
        return dirty.count();
    }

    /**
     * Marks an entry dirty after its value or expiry changed. Past the dirty limit (an eighth of the
     * capacity), first writes a batch of other keys' dirty entries back ahead of time: a snapshot then
     * flushes at most about that many, which bounds its pause.
     */
    void markDirty(Entry e) {
        e.changed = ++changes;
        if (e.dirty) {
            return;
        }
        e.dirty = true;
        dirty.add(e);
        if (dirty.count() > nextClean) {
            cleanSome();
        }
    }

    /** Marks an entry clean: RocksDB holds what it says (the caller made it so). */
    void markClean(Entry e) {
        if (e.dirty) {
            e.dirty = false;
            dirty.remove(e);
        }
    }

    /** The entry of the row {@code key[0, length)}, marked as used, or null when not cached. */
    Entry find(StateColumn column, byte[] key, int length, int hash) {
        for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
            int index = table[slot] - 1;
            if (index < 0) {
                return null;
            }
            if (hashes[slot] != hash) {
                continue;
            }
            Entry e = pool[index];
            if (e.column == column
                    && (e.key == key || Arrays.equals(e.key, 0, e.key.length, key, 0, length))) {
                e.referenced = true;
                return e;
            }
        }
    }

    /**
     * A new clean entry for a row that is not cached (check with {@link #find}), with no value, that RocksDB
     * may hold ({@link Entry#stored}); evicts a batch first when the cache is full. {@code key} must not change
     * while cached.
     */
    Entry insert(StateColumn column, byte[] key, int hash) {
        return insert(column, key, hash, null);
    }

    /**
     * A new clean member entry for row {@code key} of {@code namespace} under the anchor of the current key
     * ({@code keyBytes}, hashing to {@code anchorHash}); the anchor is created when missing, {@link Entry#complete}
     * as {@code completeIfNew} says.
     */
    Entry insertMember(StateColumn column, byte[] key, int hash, Object namespace, byte[] keyBytes, int anchorHash,
            boolean completeIfNew) {
        Entry e = insert(column, key, hash, null);
        e.namespace = namespace;
        Entry anchor = find(column, keyBytes, keyBytes.length, anchorHash);
        if (anchor == null) {
            anchor = insert(column, keyBytes, anchorHash, e);
            anchor.complete = completeIfNew;
        }
        anchor.key = keyBytes;
        e.anchor = anchor;
        e.next = anchor.next;
        if (anchor.next != null) {
            anchor.next.previous = e;
        }
        anchor.next = e;
        anchor.members++;
        return e;
    }

    /**
     * A complete anchor without members for the current key ({@code keyBytes}, hashing to {@code anchorHash}) of a
     * namespaced state, which must have none cached: RocksDB holds no row of the key (the caller has seen so).
     * It is evicted like any entry without members.
     */
    Entry insertEmptyAnchor(StateColumn column, byte[] keyBytes, int anchorHash) {
        Entry anchor = insert(column, keyBytes, anchorHash, null);
        anchor.complete = true;
        return anchor;
    }

    /** The anchor of a namespaced state's key (the current key's bytes), or null when none of its rows is cached. */
    Entry anchor(StateColumn column, byte[] keyBytes, int anchorHash) {
        Entry anchor = find(column, keyBytes, keyBytes.length, anchorHash);
        if (anchor != null) {
            anchor.key = keyBytes;
        }
        return anchor;
    }

    /** A new visit number for {@link Entry#seen}. */
    int nextVisit() {
        return ++visits;
    }

    /** Writes every dirty entry to RocksDB in one batch; the entries stay cached, clean. */
    void flush() {
        for (Entry e = dirty.oldest(); e != null; ) {
            Entry next = e.dirtyNext;
            writeBack(e);
            e = next;
        }
        writes.commit();
    }

    /** Flushes, then drops every entry (before rows are written into the columns past the cache). */
    void flushAndClear() {
        flush();
        clear();
    }

    /** Drops every entry without writing anything back. */
    void clear() {
        Arrays.fill(table, 0);
        for (int i = 0; i < allocated; i++) {
            reset(pool[i]);
        }
        allocated = 0;
        freeCount = 0;
        size = 0;
        hand = 0;
        dirty.clear();
        nextClean = dirtyLimit;
    }

    /** Releases the write batch; the cache is not used afterwards. */
    void close() {
        clear();
        writes.close();
    }

    private Entry insert(StateColumn column, byte[] key, int hash, Entry keep) {
        if (size == capacity) {
            evict(keep);
        }
        if ((size + 1) * 2 > table.length) {
            growTable();
        }
        int index;
        if (freeCount > 0) {
            index = free[--freeCount];
        } else {
            index = allocated++;
            if (index == pool.length) {
                pool = Arrays.copyOf(pool, Math.min(capacity, pool.length * 2));
            }
            if (pool[index] == null) {
                pool[index] = new Entry();
            }
        }
        Entry e = pool[index];
        e.column = column;
        e.key = key;
        e.hash = hash;
        e.referenced = true;
        e.stored = true;
        int slot = hash & mask;
        while (table[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        table[slot] = index + 1;
        hashes[slot] = hash;
        size++;
        return e;
    }

    /**
     * Evicts up to {@link #evictBatch} entries: the CLOCK hand clears the used mark of entries it passes and
     * takes unmarked ones, sparing anchors with members and {@code keep}, and for its first two rounds the
     * current key's entries. After three rounds it settles for what it found. Dirty victims are written back
     * in one batch.
     */
    private void evict(Entry keep) {
        byte[] current = backend.currentKeyBytes();
        int evicted = 0;
        for (int visited = 0; evicted < evictBatch && (evicted == 0 || visited < 3 * capacity); visited++) {
            int index = hand;
            hand = hand + 1 == allocated ? 0 : hand + 1;
            Entry e = pool[index];
            if (e.column == null || e == keep || e.members > 0) {
                continue;
            }
            if (visited < 2 * capacity) {
                if (e.referenced) {
                    e.referenced = false;
                    continue;
                }
                if (ofKey(e, current)) {
                    continue;
                }
            }
            if (e.dirty) {
                writeBack(e);
            }
            unlink(index);
            release(e);
            if (freeCount == free.length) {
                free = Arrays.copyOf(free, free.length * 2);
            }
            free[freeCount++] = index;
            evicted++;
        }
        writes.commit();
    }

    /**
     * Writes back up to {@link #cleanBatch} dirty entries of other keys than the current one, in one batch,
     * oldest first: first those not changed during the last {@link #dirtyLimit} changes (a hot entry would soon
     * be dirty again; it goes to the back of the list), then, if that pass found too few, any. The next call
     * comes after as many entries more turned dirty, so that dirty entries of the current key alone cost two
     * passes per batch at most.
     */
    private void cleanSome() {
        byte[] current = backend.currentKeyBytes();
        int cleaned = 0;
        for (int pass = 0; pass < 2 && cleaned < cleanBatch; pass++) {
            Entry e = dirty.oldest();
            for (int left = dirty.count(); e != null && left > 0 && cleaned < cleanBatch; left--) {
                Entry next = e.dirtyNext;
                if (!ofKey(e, current)) {
                    if (pass == 1 || changes - e.changed > dirtyLimit) {
                        writeBack(e);
                        cleaned++;
                    } else if (next != null) {
                        dirty.moveToBack(e);
                    }
                }
                e = next;
            }
        }
        writes.commit();
        nextClean = Math.max(dirtyLimit, dirty.count() + cleanBatch);
    }

    /** Whether an entry belongs to the key whose bytes are {@code key} (by reference, see {@link Entry#key}). */
    private static boolean ofKey(Entry e, byte[] key) {
        return e.key == key || (e.anchor != null && e.anchor.key == key);
    }

    /**
     * Queues an entry's row for the next {@link WriteBackBatch#commit}: a put of its value, a delete when it has
     * none (skipped when RocksDB holds no row), or for {@link ListRows.Appends} a merge of the elements appended
     * since (then cleared).
     */
    private void writeBack(Entry e) {
        byte[] row = e.column.encodeRow(e.value, e.expiry);
        e.dirty = false;
        dirty.remove(e);
        if (row == null && !e.stored) {
            return;
        }
        boolean merge = row != null && e.value instanceof ListRows.Appends;
        if (merge) {
            ((ListRows.Appends) e.value).elements.clear();
        }
        writes.add(e.column, e.key, row, merge);
        e.stored = row != null;
        writeBacks++;
    }

    /** Doubles the table and re-inserts every cached entry. */
    private void growTable() {
        table = new int[table.length * 2];
        hashes = new int[table.length];
        mask = table.length - 1;
        for (int i = 0; i < allocated; i++) {
            Entry e = pool[i];
            if (e.column != null) {
                int slot = e.hash & mask;
                while (table[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                table[slot] = i + 1;
                hashes[slot] = e.hash;
            }
        }
    }

    /** Removes a pool index from the table, shifting later entries of its probe run back. */
    private void unlink(int index) {
        int slot = pool[index].hash & mask;
        while (table[slot] != index + 1) {
            slot = (slot + 1) & mask;
        }
        int hole = slot;
        for (int next = (hole + 1) & mask; table[next] != 0; next = (next + 1) & mask) {
            int home = hashes[next] & mask;
            boolean movable = hole <= next ? home <= hole || home > next : home <= hole && home > next;
            if (movable) {
                table[hole] = table[next];
                hashes[hole] = hashes[next];
                hole = next;
            }
        }
        table[hole] = 0;
        size--;
    }

    /** Frees an entry; a member leaves its anchor's chain (which is then incomplete if RocksDB holds the member). */
    private static void release(Entry e) {
        Entry anchor = e.anchor;
        if (anchor != null) {
            if (e.stored) {
                anchor.complete = false;
            }
            if (e.previous == null) {
                anchor.next = e.next;
            } else {
                e.previous.next = e.next;
            }
            if (e.next != null) {
                e.next.previous = e.previous;
            }
            anchor.members--;
        }
        reset(e);
    }

    private static void reset(Entry e) {
        e.column = null;
        e.key = null;
        e.value = null;
        e.expiry = 0;
        e.dirty = false;
        e.stored = false;
        e.referenced = false;
        e.namespace = null;
        e.anchor = null;
        e.previous = null;
        e.next = null;
        e.members = 0;
        e.complete = false;
        e.seen = 0;
        e.changed = 0;
        e.dirtyPrevious = null;
        e.dirtyNext = null;
    }
}
