package io.millrace.rocksdb;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.SchemaEvolutionContractTest;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;
import org.junit.jupiter.api.Nested;

/**
 * Schema evolution across a savepoint that changes the state backend: written on the heap backend and restored
 * on RocksDB, and the reverse; every outcome as on one backend, failures at the same point and naming the same.
 */
class CrossBackendSchemaEvolutionTest {
    @Nested
    class HeapToRocksDb extends SchemaEvolutionContractTest {
        @Override
        protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
            return new RocksDbKeyedStateBackend(OPERATOR, range, maxParallelism, clock, TestBackends.CONFIG);
        }

        @Override
        protected KeyedStateBackend writingBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
            return closedAfterTest(new HeapKeyedStateBackend(OPERATOR, range, maxParallelism, clock));
        }

        @Override
        protected boolean savepoints() {
            return true;
        }
    }

    @Nested
    class RocksDbToHeap extends SchemaEvolutionContractTest {
        @Override
        protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
            return new HeapKeyedStateBackend(OPERATOR, range, maxParallelism, clock);
        }

        @Override
        protected KeyedStateBackend writingBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
            return closedAfterTest(new RocksDbKeyedStateBackend(OPERATOR, range, maxParallelism, clock, TestBackends.CONFIG));
        }

        @Override
        protected boolean savepoints() {
            return true;
        }
    }
}
