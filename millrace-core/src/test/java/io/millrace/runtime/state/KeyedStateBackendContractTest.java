package io.millrace.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.state.AggregatingState;
import io.millrace.api.state.AggregatingStateDescriptor;
import io.millrace.api.state.KeyedStateStore;
import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ReducingState;
import io.millrace.api.state.ReducingStateDescriptor;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every keyed state backend must do, whatever it stores state in: the five state kinds, namespaced
 * state, registration rules, key groups and the current key. Subclasses create the backend under test.
 */
public abstract class KeyedStateBackendContractTest extends BackendContract {
    protected KeyedStateBackend backend;
    protected KeyedStateStore store;

    @BeforeEach
    public void createDefaultBackend() {
        backend = backend(new KeyGroupRange(0, 127), 128, new ManualClock(0));
        store = backend.stateStore();
    }

    /** Averages longs; the accumulator is {sum, count}. */
    public static final class Average implements AggregateFunction<Long, long[], Double> {
        @Override
        public long[] createAccumulator() {
            return new long[2];
        }

        @Override
        public long[] add(Long value, long[] acc) {
            acc[0] += value;
            acc[1]++;
            return acc;
        }

        @Override
        public Double getResult(long[] acc) {
            return (double) acc[0] / acc[1];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            return new long[] {a[0] + b[0], a[1] + b[1]};
        }
    }

    @Test
    public void valueState_isPerKey_andClearingRemovesTheEntry() {
        ValueState<String> state = store.getState(new ValueStateDescriptor<>("v"));
        backend.setCurrentKey("a");
        assertThat(state.value()).isNull();
        state.update("x");
        backend.setCurrentKey("b");
        assertThat(state.value()).isNull();
        state.update("y");
        backend.setCurrentKey("a");
        assertThat(state.value()).isEqualTo("x");
        assertThat(backend.entryCount()).isEqualTo(2);

        state.clear();
        assertThat(state.value()).isNull();
        backend.setCurrentKey("b");
        state.update(null);
        assertThat(backend.entryCount()).isZero();
    }

    @Test
    public void listState_addsInOrder_andEmptyUpdateRemovesTheEntry() {
        ListState<Integer> state = store.getListState(new ListStateDescriptor<>("l"));
        backend.setCurrentKey(7);
        assertThat(state.get()).isEmpty();
        state.add(1);
        state.addAll(List.of(2, 3));
        assertThat(state.get()).containsExactly(1, 2, 3);
        state.update(List.of(9));
        assertThat(state.get()).containsExactly(9);
        assertThat(backend.entryCount()).isEqualTo(1);
        state.update(List.of());
        assertThat(state.get()).isEmpty();
        assertThat(backend.entryCount()).isZero();
        state.add(4);
        state.clear();
        assertThat(state.get()).isEmpty();
        assertThat(backend.entryCount()).isZero();
    }

    @Test
    public void listState_viewCannotBeChangedByTheCaller() {
        ListState<Integer> state = store.getListState(new ListStateDescriptor<>("l"));
        backend.setCurrentKey(1);
        state.add(1);
        assertThatThrownBy(() -> state.get().iterator().remove()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    public void mapState_removingTheLastEntryRemovesTheKey() {
        MapState<String, Integer> state = store.getMapState(new MapStateDescriptor<>("m"));
        backend.setCurrentKey("k");
        assertThat(state.isEmpty()).isTrue();
        state.put("a", 1);
        state.put("b", 2);
        state.put("a", 3);
        assertThat(state.get("a")).isEqualTo(3);
        assertThat(state.contains("b")).isTrue();
        assertThat(state.contains("c")).isFalse();
        assertThat(state.entries()).containsExactlyInAnyOrder(Map.entry("a", 3), Map.entry("b", 2));
        for (Map.Entry<String, Integer> e : state.entries()) {
            state.remove(e.getKey());
        }
        assertThat(state.isEmpty()).isTrue();
        assertThat(backend.entryCount()).isZero();
        state.put("z", 1);
        state.clear();
        assertThat(state.get("z")).isNull();
    }

    @Test
    public void reducingState_foldsValues_andIsNullWhenEmpty() {
        ReducingState<Long> state = store.getReducingState(new ReducingStateDescriptor<>("r", Long::sum));
        backend.setCurrentKey("k");
        assertThat(state.get()).isNull();
        state.add(3L);
        state.add(4L);
        assertThat(state.get()).isEqualTo(7L);
        state.clear();
        assertThat(state.get()).isNull();
        assertThat(backend.entryCount()).isZero();
    }

    @Test
    public void aggregatingState_foldsIntoAnAccumulator_andIsNullWhenEmpty() {
        AggregatingState<Long, Double> state = store.getAggregatingState(new AggregatingStateDescriptor<>("avg", new Average()));
        backend.setCurrentKey("k");
        assertThat(state.get()).isNull();
        state.add(1L);
        state.add(4L);
        assertThat(state.get()).isEqualTo(2.5);
        backend.setCurrentKey("other");
        assertThat(state.get()).isNull();
        backend.setCurrentKey("k");
        state.clear();
        assertThat(state.get()).isNull();
    }

    @Test
    public void namespacedState_keepsNamespacesApart_andRemovesTheKeyWithTheLastNamespace() {
        NamespacedState<Long, String> state = backend.namespacedState("windows");
        backend.setCurrentKey("k");
        state.put(10L, "a");
        state.put(20L, "b");
        assertThat(state.get(10L)).isEqualTo("a");
        List<Long> seen = new ArrayList<>();
        state.forEach((ns, v) -> seen.add(ns));
        assertThat(seen).containsExactlyInAnyOrder(10L, 20L);
        state.remove(10L);
        assertThat(state.get(10L)).isNull();
        assertThat(backend.entryCount()).isEqualTo(1);
        state.remove(20L);
        assertThat(backend.entryCount()).isZero();
        state.put(1L, "x");
        state.clear();
        assertThat(state.get(1L)).isNull();
    }

    @Test
    public void sameDescriptorNameTwice_givesTheSameStateObject() {
        ValueState<String> first = store.getState(new ValueStateDescriptor<>("v"));
        ValueState<String> second = store.getState(new ValueStateDescriptor<>("v"));
        assertThat(second).isSameAs(first);
    }

    @Test
    public void sameNameWithAnotherKind_isRefusedNamingTheState() {
        store.getState(new ValueStateDescriptor<String>("counts"));
        assertThatThrownBy(() -> store.getListState(new ListStateDescriptor<String>("counts")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'counts'")
                .hasMessageContaining("value")
                .hasMessageContaining("list");
        assertThatThrownBy(() -> backend.namespacedState("counts")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    public void keyOutsideTheOwnedKeyGroups_isRefusedNamingKeyGroupAndRange() {
        KeyedStateBackend half = backend(KeyGroups.rangeFor(0, 128, 2), 128, new ManualClock(0));
        int key = 0;
        while (KeyGroups.keyGroupFor(key, 128) < 64) {
            key++;
        }
        int group = KeyGroups.keyGroupFor(key, 128);
        int outside = key;
        assertThatThrownBy(() -> half.setCurrentKey(outside))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key '" + outside + "'")
                .hasMessageContaining("key group " + group)
                .hasMessageContaining("[0, 63]");
    }

    @Test
    public void currentKeyGroup_isTheKeysGroup() {
        backend.setCurrentKey("sensor-1");
        assertThat(backend.currentKeyGroup()).isEqualTo(KeyGroups.keyGroupFor("sensor-1", 128));
        assertThat(backend.currentKey()).isEqualTo("sensor-1");
    }

    @Test
    public void stateAccessWithoutCurrentKey_failsNamingTheState() {
        ValueState<String> state = store.getState(new ValueStateDescriptor<>("v"));
        backend.setCurrentKey("a");
        backend.setCurrentKey(null);
        assertThatThrownBy(state::value).isInstanceOf(IllegalStateException.class).hasMessageContaining("'v'");
    }
}
