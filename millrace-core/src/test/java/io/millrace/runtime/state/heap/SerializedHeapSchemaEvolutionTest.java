package io.millrace.runtime.state.heap;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.SchemaEvolutionContractTest;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;

/** The schema evolution across a snapshot on the heap backend with values kept serialized ({@code state.heap.values: serialized}). */
class SerializedHeapSchemaEvolutionTest extends SchemaEvolutionContractTest {
    @Override
    protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
        return new HeapKeyedStateBackend(OPERATOR, range, maxParallelism, clock, true);
    }
}
