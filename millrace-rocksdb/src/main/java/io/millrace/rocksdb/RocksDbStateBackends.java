package io.millrace.rocksdb;

import io.millrace.runtime.state.KeyedStateBackendFactory;

/**
 * Entry point of the RocksDB state backend: a factory the runtime calls once per keyed operator subtask,
 * e.g. {@code new LocalExecutor(RocksDbStateBackends.factory(RocksDbConfig.defaults()))}.
 */
public final class RocksDbStateBackends {
    private RocksDbStateBackends() {}

    public static KeyedStateBackendFactory factory(RocksDbConfig config) {
        return KeyedStateBackendFactory.named(RocksDbStateBackendProvider.NAME,
                (operator, range, maxParallelism, clock) -> new RocksDbKeyedStateBackend(operator, range, maxParallelism, clock, config));
    }

    public static KeyedStateBackendFactory factory() {
        return factory(RocksDbConfig.defaults());
    }
}
