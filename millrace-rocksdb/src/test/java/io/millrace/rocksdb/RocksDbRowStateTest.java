package io.millrace.rocksdb;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.RowStateContractTest;

/** Rows in state on the RocksDB backend (the state cache on, so reads meet cached and stored rows). */
class RocksDbRowStateTest extends RowStateContractTest {
    @Override
    protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
        return new RocksDbKeyedStateBackend("rows", range, maxParallelism, clock, TestBackends.CONFIG);
    }
}
