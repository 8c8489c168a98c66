package io.millrace.rocksdb;

import java.util.HashMap;
import java.util.Map;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBufferManager;

/**
 * The block cache and write buffer manager shared by all RocksDB instances of the process with the same
 * managed-memory setting. Write buffers are charged to the cache, and index and filter blocks live in it,
 * so the cache capacity bounds all three. Reference counted: the last {@link #release} frees the native
 * objects. Thread-safe (backends of different tasks open and close concurrently).
 */
final class SharedMemory {
    /** Share of the managed memory that memtables may use before RocksDB flushes them. */
    private static final double WRITE_BUFFER_RATIO = 0.5;
    /** Share of the cache reserved for index and filter blocks (high priority). */
    private static final double HIGH_PRIORITY_RATIO = 0.1;
    private static final Map<Long, SharedMemory> BY_SIZE = new HashMap<>();

    static {
        RocksDB.loadLibrary();
    }

    private final long bytes;
    private final Cache cache;
    private final WriteBufferManager writeBuffers;
    private int users;

    private SharedMemory(long bytes) {
        this.bytes = bytes;
        this.cache = new LRUCache(bytes, -1, false, HIGH_PRIORITY_RATIO);
        this.writeBuffers = new WriteBufferManager((long) (bytes * WRITE_BUFFER_RATIO), cache);
    }

    /** The shared memory for a setting, created on first use; pair with {@link #release}. */
    static synchronized SharedMemory acquire(long bytes) {
        SharedMemory m = BY_SIZE.computeIfAbsent(bytes, SharedMemory::new);
        m.users++;
        return m;
    }

    /** Number of live shared pools, for tests. */
    static synchronized int livePools() {
        return BY_SIZE.size();
    }

    long bytes() {
        return bytes;
    }

    Cache cache() {
        return cache;
    }

    WriteBufferManager writeBuffers() {
        return writeBuffers;
    }

    /** Memtable memory per column family before a flush: a slice of the budget, so many states fit. */
    long writeBufferSize() {
        return Math.max(1L << 20, Math.min(64L << 20, bytes / 8));
    }

    void release() {
        synchronized (SharedMemory.class) {
            if (--users > 0) {
                return;
            }
            BY_SIZE.remove(bytes);
        }
        writeBuffers.close();
        cache.close();
    }
}
