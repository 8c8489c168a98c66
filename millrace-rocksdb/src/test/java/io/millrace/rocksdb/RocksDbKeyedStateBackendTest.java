package io.millrace.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.Clock;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.KeyedStateBackendContractTest;
import io.millrace.runtime.state.NamespacedState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The backend contract on RocksDB, plus what only RocksDB does: key-group ranges, namespaced write-back. */
class RocksDbKeyedStateBackendTest extends KeyedStateBackendContractTest {
    @Override
    protected KeyedStateBackend createBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
        return TestBackends.create(range, maxParallelism, clock);
    }

    private RocksDbKeyedStateBackend rocks() {
        return (RocksDbKeyedStateBackend) backend;
    }

    @Test
    void entriesOfOneKeyGroup_areOneContiguousRange_visitedOnTheirOwn() {
        ValueState<Integer> state = store.getState(new ValueStateDescriptor<>("v"));
        for (int k = 0; k < 1000; k++) {
            backend.setCurrentKey(k);
            state.update(k);
        }
        int group = KeyGroups.keyGroupFor(5, 128);
        List<Object> keys = new ArrayList<>();
        rocks().forEachEntry("v", group, (k, v) -> keys.add(k));
        assertThat(keys).contains(5).allSatisfy(k -> assertThat(KeyGroups.keyGroupFor(k, 128)).isEqualTo(group));
    }

    @Test
    void mapEntriesOfAKeyGroup_areVisitedWithTheirMapKeys() {
        MapState<String, Integer> state = store.getMapState(new MapStateDescriptor<>("m"));
        backend.setCurrentKey("k");
        state.put("a", 1);
        state.put("b", 2);
        List<Object> seen = new ArrayList<>();
        rocks().forEachEntry("m", KeyGroups.keyGroupFor("k", 128), (k, v) -> seen.add(k + "=" + v));
        assertThat(seen).containsExactly("k=a=1", "k=b=2");
    }

    @Test
    void namespacedValues_changedInPlace_areWrittenBackWhenTheKeyChanges() {
        NamespacedState<Long, long[]> state = backend.namespacedState("acc");
        backend.setCurrentKey("a");
        state.put(1L, new long[] {1});
        state.get(1L)[0] += 10;
        backend.setCurrentKey("b");
        state.put(1L, new long[] {5});
        backend.setCurrentKey("a");
        long[] a = state.get(1L);
        assertThat(a).containsExactly(11);
        a[0]++;
        List<Long> seen = new ArrayList<>();
        state.forEach((ns, v) -> seen.add(v[0]));
        assertThat(seen).containsExactly(12L);
        assertThat(state.get(1L)).isSameAs(a);
        backend.setCurrentKey("b");
        assertThat(state.get(1L)).containsExactly(5);
        backend.setCurrentKey("a");
        assertThat(state.get(1L)).containsExactly(12);
    }

    @Test
    void keysOfManyTypes_roundTripThroughTimersAndState() throws Exception {
        ValueState<String> state = store.getState(new ValueStateDescriptor<>("v"));
        List<Object> keys = List.of(7, 7L, "s", new Reading("x", 1.5), Kind.HOT, List.of(1, 2), Map.of("a", 1, "b", 2));
        for (Object k : keys) {
            backend.setCurrentKey(k);
            state.update(String.valueOf(k));
        }
        for (Object k : keys) {
            backend.setCurrentKey(k);
            assertThat(state.value()).isEqualTo(String.valueOf(k));
        }
        assertThat(backend.entryCount()).isEqualTo(keys.size());
    }

    record Reading(String sensor, double value) {}

    enum Kind {
        HOT,
        COLD
    }
}
