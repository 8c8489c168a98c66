package io.millrace.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.BackendModelContractTest;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import org.junit.jupiter.api.AfterEach;

/**
 * The reference-model comparison on the heap backend under {@code state.heap.values: auto}, deciding every four
 * operations: states change between objects and encoded values many times amid the random operations.
 */
class AutoHeapBackendModelTest extends BackendModelContractTest {
    private final EagerAutoValues auto = new EagerAutoValues(4, 8);

    @Override
    protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
        return auto.backend(range, maxParallelism, clock);
    }

    @AfterEach
    void statesChangedHowTheyKeepTheirValues() {
        assertThat(auto.changes()).as("changes between objects and encoded values").isPositive();
    }
}
