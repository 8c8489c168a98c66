package io.millrace.runtime.state.heap;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.StateTtlContractTest;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;

/** The TTL contract on the heap backend with values kept serialized ({@code state.heap.values: serialized}). */
class SerializedStateTtlTest extends StateTtlContractTest {
    @Override
    protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
        return new HeapKeyedStateBackend(null, range, maxParallelism, clock, true);
    }
}
