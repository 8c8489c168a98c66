package io.millrace.rocksdb;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.SortedMapStateContractTest;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;
import org.junit.jupiter.api.Nested;

/**
 * Sorted map state against TreeMaps while its savepoints move between the backends, at 1, 2 or 3 subtasks: heap
 * savepoints restored on RocksDB and back, and RocksDB savepoints restored on the heap and back.
 */
class CrossBackendSortedMapStateTest {
    @Nested
    class HeapSavepointsOnRocksDb extends SortedMapStateContractTest {
        @Override
        protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
            return new HeapKeyedStateBackend("sorted", range, maxParallelism, clock);
        }

        @Override
        protected KeyedStateBackend createRestoreTarget(KeyGroupRange range, int maxParallelism, Clock clock) {
            return TestBackends.create(range, maxParallelism, clock);
        }

        @Override
        protected boolean restoresCheckpoints() {
            return false;
        }
    }

    @Nested
    class RocksDbSavepointsOnHeap extends SortedMapStateContractTest {
        @Override
        protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
            return TestBackends.create(range, maxParallelism, clock);
        }

        @Override
        protected KeyedStateBackend createRestoreTarget(KeyGroupRange range, int maxParallelism, Clock clock) {
            return new HeapKeyedStateBackend("sorted", range, maxParallelism, clock);
        }

        @Override
        protected boolean restoresCheckpoints() {
            return false;
        }
    }
}
