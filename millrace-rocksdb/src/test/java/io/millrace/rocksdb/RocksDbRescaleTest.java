package io.millrace.rocksdb;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.RescaleContractTest;

/** The rescaling contract on the RocksDB backend (the state cache on, so restores meet cached and stored rows). */
class RocksDbRescaleTest extends RescaleContractTest {
    @Override
    protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
        return new RocksDbKeyedStateBackend("rescaled", range, maxParallelism, clock, TestBackends.CONFIG);
    }
}
