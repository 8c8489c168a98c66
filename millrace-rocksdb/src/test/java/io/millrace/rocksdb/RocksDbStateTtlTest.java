package io.millrace.rocksdb;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.StateTtlContractTest;

/** The TTL contract on RocksDB. */
class RocksDbStateTtlTest extends StateTtlContractTest {
    @Override
    protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
        return TestBackends.create(range, maxParallelism, clock);
    }
}
