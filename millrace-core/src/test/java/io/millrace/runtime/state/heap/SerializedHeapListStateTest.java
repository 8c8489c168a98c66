package io.millrace.runtime.state.heap;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;

/** {@link HeapListStateTest} with values kept serialized ({@code state.heap.values: serialized}). */
class SerializedHeapListStateTest extends HeapListStateTest {
    @Override
    HeapKeyedStateBackend heap(KeyGroupRange range, int maxParallelism, Clock clock) {
        return new HeapKeyedStateBackend(null, range, maxParallelism, clock, true);
    }

    @Override
    boolean keepsObjects() {
        return false;
    }
}
