package io.millrace.runtime.state.heap;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.RowStateContractTest;

/** Rows in state on the heap backend. */
class HeapRowStateTest extends RowStateContractTest {
    @Override
    protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
        return new HeapKeyedStateBackend(range, maxParallelism, clock);
    }
}
