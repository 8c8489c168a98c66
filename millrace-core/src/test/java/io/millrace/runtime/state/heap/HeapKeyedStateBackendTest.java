package io.millrace.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.KeyedStateBackendContractTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The backend contract on the heap, plus per-key-group visiting of heap state. */
class HeapKeyedStateBackendTest extends KeyedStateBackendContractTest {
    @Override
    protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
        return new HeapKeyedStateBackend(range, maxParallelism, clock);
    }

    @Test
    void entriesOfOneKeyGroup_canBeVisitedOnTheirOwn() {
        ValueState<Integer> state = store.getState(new ValueStateDescriptor<>("v"));
        for (int k = 0; k < 1000; k++) {
            backend.setCurrentKey(k);
            state.update(k);
        }
        int group = KeyGroups.keyGroupFor(5, 128);
        List<Object> keys = new ArrayList<>();
        ((HeapKeyedStateBackend) backend).forEachEntry("v", group, (k, v) -> keys.add(k));
        assertThat(keys).contains(5).allSatisfy(k -> assertThat(KeyGroups.keyGroupFor(k, 128)).isEqualTo(group));
    }
}
