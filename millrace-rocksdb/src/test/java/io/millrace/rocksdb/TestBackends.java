package io.millrace.rocksdb;

import io.millrace.api.PipelineConfig;
import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import java.nio.file.Path;

/**
 * RocksDB backends for tests: working directories under target/, a small memory budget, and small timer caches,
 * so that tests with a few hundred timers already keep most of them in RocksDB.
 */
final class TestBackends {
    static final Path BASE = Path.of("target", "rocksdb-test-state");
    static final int TIMER_CACHE_ENTRIES = 256;
    static final RocksDbConfig CONFIG = RocksDbConfig.defaults().withBaseDirectory(BASE).withManagedMemoryBytes(32L << 20)
            .withTimerCacheEntries(TIMER_CACHE_ENTRIES);

    private TestBackends() {}

    static RocksDbKeyedStateBackend create(KeyGroupRange range, int maxParallelism, Clock clock) {
        return new RocksDbKeyedStateBackend("test-operator", range, maxParallelism, clock, CONFIG);
    }

    /** {@code config} with RocksDB selected by name: working directories under {@code directory}, 32 MB of memory. */
    static PipelineConfig onRocksDb(PipelineConfig config, Path directory) {
        return config.stateBackend("rocksdb")
                .stateBackendOption(RocksDbConfig.DIRECTORY_OPTION, directory.toString())
                .stateBackendOption(RocksDbConfig.MANAGED_MEMORY_OPTION, "32mb");
    }
}
