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
 */
public record RocksDbConfig(Path baseDirectory, long managedMemoryBytes, boolean incremental) {
    /** Option name of {@link #managedMemoryBytes}, as the config file and CLI will spell it. */
    public static final String MANAGED_MEMORY_OPTION = "state.rocksdb.managed-memory";
    /** Option name of {@link #baseDirectory}. */
    public static final String DIRECTORY_OPTION = "state.rocksdb.directory";
    /** Option name of {@link #incremental}. */
    public static final String INCREMENTAL_OPTION = "state.rocksdb.incremental";
    public static final long DEFAULT_MANAGED_MEMORY_BYTES = 256L << 20;
    static final long MIN_MANAGED_MEMORY_BYTES = 4L << 20;

    public RocksDbConfig {
        Objects.requireNonNull(baseDirectory, DIRECTORY_OPTION);
        if (managedMemoryBytes < MIN_MANAGED_MEMORY_BYTES) {
            throw new IllegalArgumentException(MANAGED_MEMORY_OPTION + " must be at least " + MIN_MANAGED_MEMORY_BYTES
                    + " bytes (4 MB), was " + managedMemoryBytes);
        }
    }

    /** Incremental checkpoints on. */
    public RocksDbConfig(Path baseDirectory, long managedMemoryBytes) {
        this(baseDirectory, managedMemoryBytes, true);
    }

    /** A temp-dir base directory, 256 MB of managed memory, incremental checkpoints. */
    public static RocksDbConfig defaults() {
        return new RocksDbConfig(Path.of(System.getProperty("java.io.tmpdir"), "millrace-rocksdb"), DEFAULT_MANAGED_MEMORY_BYTES);
    }

    public RocksDbConfig withBaseDirectory(Path directory) {
        return new RocksDbConfig(directory, managedMemoryBytes, incremental);
    }

    public RocksDbConfig withManagedMemoryBytes(long bytes) {
        return new RocksDbConfig(baseDirectory, bytes, incremental);
    }

    public RocksDbConfig withIncremental(boolean on) {
        return new RocksDbConfig(baseDirectory, managedMemoryBytes, on);
    }
}
