package io.millrace.runtime.state.heap;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.SchemaEvolutionContractTest;

/** Schema evolution across a snapshot of the heap backend. */
class HeapSchemaEvolutionTest extends SchemaEvolutionContractTest {
    @Override
    protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
        return new HeapKeyedStateBackend(OPERATOR, range, maxParallelism, clock);
    }
}
