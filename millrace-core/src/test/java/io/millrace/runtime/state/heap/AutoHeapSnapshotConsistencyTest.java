package io.millrace.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import org.junit.jupiter.api.AfterEach;

/**
 * {@link HeapSnapshotConsistencyTest} under {@code state.heap.values: auto}, deciding every four operations: a
 * state changes between objects and encoded values while a snapshot is pending, and the snapshot still holds the
 * state of its moment.
 */
class AutoHeapSnapshotConsistencyTest extends HeapSnapshotConsistencyTest {
    private final EagerAutoValues auto = new EagerAutoValues(4, 8);

    @Override
    HeapKeyedStateBackend heap(KeyGroupRange range, int maxParallelism, Clock clock) {
        return auto.backend(range, maxParallelism, clock);
    }

    @AfterEach
    void statesChangedHowTheyKeepTheirValues() {
        assertThat(auto.changes()).as("changes between objects and encoded values").isPositive();
    }
}
