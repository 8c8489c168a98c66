package io.millrace.runtime.state.heap;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;

/** {@link HeapSnapshotTtlTest} with values kept serialized ({@code state.heap.values: serialized}). */
class SerializedHeapSnapshotTtlTest extends HeapSnapshotTtlTest {
    @Override
    HeapKeyedStateBackend heap(KeyGroupRange range, int maxParallelism, Clock clock) {
        return new HeapKeyedStateBackend(null, range, maxParallelism, clock, true);
    }
}
