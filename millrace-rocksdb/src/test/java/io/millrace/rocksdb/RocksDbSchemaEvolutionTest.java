package io.millrace.rocksdb;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.SchemaEvolutionContractTest;

/** Schema evolution across a full snapshot of the RocksDB backend. */
class RocksDbSchemaEvolutionTest extends SchemaEvolutionContractTest {
    @Override
    protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
        return new RocksDbKeyedStateBackend(OPERATOR, range, maxParallelism, clock, TestBackends.CONFIG);
    }
}
