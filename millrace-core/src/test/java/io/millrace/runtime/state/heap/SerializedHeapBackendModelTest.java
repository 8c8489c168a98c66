package io.millrace.runtime.state.heap;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.BackendModelContractTest;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;

/** The reference-model comparison on the heap backend with values kept serialized ({@code state.heap.values: serialized}). */
class SerializedHeapBackendModelTest extends BackendModelContractTest {
    @Override
    protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
        return new HeapKeyedStateBackend(null, range, maxParallelism, clock, true);
    }
}
