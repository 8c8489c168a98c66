package io.millrace.rocksdb;

import java.util.Arrays;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * A write-back cache of deserialized values in front of RocksDB, one per backend, for the single-row states
 * (value, reducing and aggregating state), like the caching layer of Kafka Streams: a bounded table from
 * (state, row key) to the value object, its expiry (TTL states) and a dirty flag. Reads are served from it
 * (a miss reads RocksDB once and caches the value, or its absence); writes and deletes only change the
 * entry and mark it dirty. When the table is full, a CLOCK sweep evicts a batch of the entries not used
 * since its last pass (never those of the current key while others are left), and the dirty ones among
 * them reach RocksDB in one {@link WriteBatch}. {@link #flush} writes every dirty entry back, keeping the
 * entries: the backend calls it before anything reads RocksDB past the cache (snapshots, native
 * checkpoints, whole-state scans, compaction), so those see every write.
 *
 * <p>Values are cached by reference: a state hands out the cached object itself, as the heap backend
 * does, and a write-back serializes it as it is then. Task thread only.
 */
final class StateCache {
    /** One cached row; {@code column == null} while the entry is free. */
    static final class Entry {
        StateColumn column;
        /** The row key; never changed while cached (for single-row states: the backend's key bytes). */
        byte[] key;
        int hash;
        /** The value, or null: absent in RocksDB, deleted, or expired. */
        Object value;
        /** When the value expires (TTL states only). */
        long expiry;
        /** Whether RocksDB does not hold {@link #value} (and {@link #expiry}) yet. */
        boolean dirty;
        /** Used since the CLOCK hand last passed. */
        boolean referenced;
    }

    private final RocksDbKeyedStateBackend backend;
    private final int capacity;
    private final int evictBatch;
    /** Entries by index, created on first use. */
    private final Entry[] pool;
    /** Indices of free entries of {@link #pool}, a stack. */
    private final int[] free;
    private int freeCount;
    /** Open addressing, linear probing: pool index + 1, 0 = empty; at most half full. */
    private final int[] table;
    private final int mask;
    private int size;
    private int hand;
    private final WriteBatch batch = new WriteBatch();
    private long writeBacks;

    /** A cache of {@code capacity} entries (at least 1) for {@code backend}. */
    StateCache(RocksDbKeyedStateBackend backend, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a state cache needs at least one entry, was " + capacity);
        }
        this.backend = backend;
        this.capacity = capacity;
        this.evictBatch = Math.max(1, Math.min(1024, capacity / 16));
        this.pool = new Entry[capacity];
        this.free = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            free[i] = capacity - 1 - i;
        }
        this.freeCount = capacity;
        this.table = new int[Integer.highestOneBit(Math.max(2, capacity) * 2 - 1) << 1];
        this.mask = table.length - 1;
    }

    /** The hash of a row of {@code column} under key bytes whose hash is {@code keyHash}. */
    static int hash(int keyHash, StateColumn column) {
        int h = keyHash * 31 + column.id;
        return h ^ (h >>> 16);
    }

    int size() {
        return size;
    }

    int capacity() {
        return capacity;
    }

    /** Entries written to RocksDB so far (evicted or flushed while dirty); for tests and metrics. */
    long writeBacks() {
        return writeBacks;
    }

    /** The entry of the row, marked as used, or null when not cached. */
    Entry find(StateColumn column, byte[] key, int hash) {
        for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
            int index = table[slot] - 1;
            if (index < 0) {
                return null;
            }
            Entry e = pool[index];
            if (e.hash == hash && e.column == column && (e.key == key || Arrays.equals(e.key, key))) {
                e.referenced = true;
                return e;
            }
        }
    }

    /**
     * A new clean entry for a row that is not cached (check with {@link #find}), with no value; evicts a
     * batch first when the cache is full. {@code key} must not change while cached.
     */
    Entry insert(StateColumn column, byte[] key, int hash) {
        if (freeCount == 0) {
            evict();
        }
        int index = free[--freeCount];
        Entry e = pool[index];
        if (e == null) {
            e = new Entry();
            pool[index] = e;
        }
        e.column = column;
        e.key = key;
        e.hash = hash;
        e.value = null;
        e.expiry = 0;
        e.dirty = false;
        e.referenced = true;
        int slot = hash & mask;
        while (table[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        table[slot] = index + 1;
        size++;
        return e;
    }

    /** Writes every dirty entry to RocksDB in one batch; the entries stay cached, clean. */
    void flush() {
        if (size == 0) {
            return;
        }
        for (Entry e : pool) {
            if (e != null && e.column != null && e.dirty) {
                writeBack(e);
            }
        }
        commit();
    }

    /** Flushes, then drops every entry (before rows are written into the columns past the cache). */
    void flushAndClear() {
        flush();
        clear();
    }

    /** Drops every entry without writing anything back. */
    void clear() {
        Arrays.fill(table, 0);
        freeCount = 0;
        for (int i = capacity - 1; i >= 0; i--) {
            if (pool[i] != null) {
                release(pool[i]);
            }
            free[freeCount++] = i;
        }
        size = 0;
        hand = 0;
    }

    /** Releases the write batch; the cache is not used afterwards. */
    void close() {
        clear();
        batch.close();
    }

    /**
     * Evicts {@link #evictBatch} entries: the CLOCK hand clears the used mark of entries it passes and takes
     * the unmarked ones, sparing the current key's entries on its first two rounds. Dirty victims are
     * written back in one batch.
     */
    private void evict() {
        byte[] current = backend.currentKeyBytes();
        int evicted = 0;
        for (int visited = 0; evicted < evictBatch; visited++) {
            int index = hand;
            hand = hand + 1 == capacity ? 0 : hand + 1;
            Entry e = pool[index];
            if (e == null || e.column == null) {
                continue;
            }
            if (e.referenced) {
                e.referenced = false;
                continue;
            }
            if (e.key == current && visited < 2 * capacity) {
                continue;
            }
            if (e.dirty) {
                writeBack(e);
            }
            unlink(index);
            release(e);
            free[freeCount++] = index;
            evicted++;
        }
        commit();
    }

    private void writeBack(Entry e) {
        byte[] row = e.column.encodeRow(e.value, e.expiry);
        try {
            if (row == null) {
                batch.delete(e.column.bytes().handle(), e.key);
            } else {
                batch.put(e.column.bytes().handle(), e.key, row);
            }
        } catch (RocksDBException ex) {
            throw new StateStorageException("cannot batch a write of " + e.column.kind + " state '" + e.column.name + "'", ex);
        }
        e.dirty = false;
        writeBacks++;
    }

    private void commit() {
        if (batch.count() > 0) {
            backend.write(batch);
            batch.clear();
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
            int home = pool[table[next] - 1].hash & mask;
            boolean movable = hole <= next ? home <= hole || home > next : home <= hole && home > next;
            if (movable) {
                table[hole] = table[next];
                hole = next;
            }
        }
        table[hole] = 0;
        size--;
    }

    private static void release(Entry e) {
        e.column = null;
        e.key = null;
        e.value = null;
        e.dirty = false;
        e.referenced = false;
    }
}
