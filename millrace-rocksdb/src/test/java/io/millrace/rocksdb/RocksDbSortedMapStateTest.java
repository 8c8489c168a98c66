package io.millrace.rocksdb;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.SortedMapStateContractTest;

/** Sorted map state on RocksDB against TreeMaps, through its checkpoints, savepoints and rescaling. */
class RocksDbSortedMapStateTest extends SortedMapStateContractTest {
    @Override
    protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
        return TestBackends.create(range, maxParallelism, clock);
    }
}
