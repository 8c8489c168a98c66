package io.millrace.rocksdb;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Settings of the RocksDB state backend.
 *
 * @param baseDirectory where each operator subtask gets its own working directory (deleted when the
 *     backend closes); by default {@code <java.io.tmpdir>/millrace-rocksdb}
 * @param managedMemoryBytes the one memory bound shared by every RocksDB instance in the process that
 *     uses this setting: block cache, index and filter blocks and write buffers (memtables) are all
 *     charged to one cache of this size
 * @param incremental whether checkpoints (not savepoints) upload RocksDB's own files, only those not in
 *     checkpoint storage yet, instead of a full copy of the rows; on by default
 * @param cacheEntries entries of each backend's write-back cache of value, reducing and aggregating state
 *     (deserialized values on the JVM heap, written to RocksDB when evicted and before every snapshot);
 *     0 turns the cache off
 * @param timerCacheEntries the most timers of each timer service and time domain (event time, processing
 *     time) kept on the JVM heap: the earliest ones, so that timers registered and fired between two
 *     checkpoints touch RocksDB not at all; the rest are rows in RocksDB
 */
public record RocksDbConfig(Path baseDirectory, long managedMemoryBytes, boolean incremental, int cacheEntries,
        int timerCacheEntries) {
    /** Option name of {@link #managedMemoryBytes}, as the config file and CLI will spell it. */
    public static final String MANAGED_MEMORY_OPTION = "state.rocksdb.managed-memory";
    /** Option name of {@link #baseDirectory}. */
    public static final String DIRECTORY_OPTION = "state.rocksdb.directory";
    /** Option name of {@link #incremental}. */
    public static final String INCREMENTAL_OPTION = "state.rocksdb.incremental";
    /** Option name of {@link #cacheEntries}. */
    public static final String CACHE_ENTRIES_OPTION = "state.rocksdb.cache.entries";
    public static final int DEFAULT_CACHE_ENTRIES = 65_536;
    /** The fewest entries of a cache that is on. */
    public static final int MIN_CACHE_ENTRIES = StateCache.MIN_ENTRIES;
    /** The most entries a cache may have. */
    public static final int MAX_CACHE_ENTRIES = 1 << 22;
    /** Option name of {@link #timerCacheEntries}. */
    public static final String TIMER_CACHE_ENTRIES_OPTION = "state.rocksdb.timer-cache.entries";
    public static final int DEFAULT_TIMER_CACHE_ENTRIES = 131_072;
    /** The fewest timers a timer cache may hold. */
    public static final int MIN_TIMER_CACHE_ENTRIES = 16;
    /** The most timers a timer cache may hold. */
    public static final int MAX_TIMER_CACHE_ENTRIES = 1 << 22;
    public static final long DEFAULT_MANAGED_MEMORY_BYTES = 256L << 20;
    static final long MIN_MANAGED_MEMORY_BYTES = 4L << 20;

    public RocksDbConfig {
        Objects.requireNonNull(baseDirectory, DIRECTORY_OPTION);
        if (managedMemoryBytes < MIN_MANAGED_MEMORY_BYTES) {
            throw new IllegalArgumentException(MANAGED_MEMORY_OPTION + " must be at least " + MIN_MANAGED_MEMORY_BYTES
                    + " bytes (4 MB), was " + managedMemoryBytes);
        }
        if (cacheEntries != 0 && (cacheEntries < MIN_CACHE_ENTRIES || cacheEntries > MAX_CACHE_ENTRIES)) {
            throw new IllegalArgumentException(CACHE_ENTRIES_OPTION + " must be 0 (off) or between " + MIN_CACHE_ENTRIES + " and "
                    + MAX_CACHE_ENTRIES + ", was " + cacheEntries);
        }
        if (timerCacheEntries < MIN_TIMER_CACHE_ENTRIES || timerCacheEntries > MAX_TIMER_CACHE_ENTRIES) {
            throw new IllegalArgumentException(TIMER_CACHE_ENTRIES_OPTION + " must be between " + MIN_TIMER_CACHE_ENTRIES + " and "
                    + MAX_TIMER_CACHE_ENTRIES + ", was " + timerCacheEntries);
        }
    }

    /** The default timer cache size. */
    public RocksDbConfig(Path baseDirectory, long managedMemoryBytes, boolean incremental, int cacheEntries) {
        this(baseDirectory, managedMemoryBytes, incremental, cacheEntries, DEFAULT_TIMER_CACHE_ENTRIES);
    }

    /** The default cache size. */
    public RocksDbConfig(Path baseDirectory, long managedMemoryBytes, boolean incremental) {
        this(baseDirectory, managedMemoryBytes, incremental, DEFAULT_CACHE_ENTRIES);
    }

    /** Incremental checkpoints on, the default cache size. */
    public RocksDbConfig(Path baseDirectory, long managedMemoryBytes) {
        this(baseDirectory, managedMemoryBytes, true);
    }

    /**
     * A temp-dir base directory, 256 MB of managed memory, incremental checkpoints, a state cache of 65,536 entries
     * per backend, timer caches of 131,072 timers.
     */
    public static RocksDbConfig defaults() {
        return new RocksDbConfig(Path.of(System.getProperty("java.io.tmpdir"), "millrace-rocksdb"), DEFAULT_MANAGED_MEMORY_BYTES);
    }

    public RocksDbConfig withBaseDirectory(Path directory) {
        return new RocksDbConfig(directory, managedMemoryBytes, incremental, cacheEntries, timerCacheEntries);
    }

    public RocksDbConfig withManagedMemoryBytes(long bytes) {
        return new RocksDbConfig(baseDirectory, bytes, incremental, cacheEntries, timerCacheEntries);
    }

    public RocksDbConfig withIncremental(boolean on) {
        return new RocksDbConfig(baseDirectory, managedMemoryBytes, on, cacheEntries, timerCacheEntries);
    }

    /** Another cache size; 0 turns the cache off. */
    public RocksDbConfig withCacheEntries(int entries) {
        return new RocksDbConfig(baseDirectory, managedMemoryBytes, incremental, entries, timerCacheEntries);
    }

    /** Another timer cache size: the most timers per timer service and time domain kept on the heap. */
    public RocksDbConfig withTimerCacheEntries(int entries) {
        return new RocksDbConfig(baseDirectory, managedMemoryBytes, incremental, cacheEntries, entries);
    }
}
