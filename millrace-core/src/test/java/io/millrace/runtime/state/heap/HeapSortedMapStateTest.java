package io.millrace.runtime.state.heap;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.SortedMapStateContractTest;

/** Sorted map state on the heap backend against TreeMaps, through its checkpoints, savepoints and rescaling. */
class HeapSortedMapStateTest extends SortedMapStateContractTest {
    @Override
    protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
        return new HeapKeyedStateBackend("sorted", range, maxParallelism, clock);
    }
}
