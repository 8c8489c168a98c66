package io.millrace.runtime.state.heap;

import io.millrace.runtime.state.NamespacedState;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/** Namespaced state: the table holds a {@link HashMap} from namespace to value per key, never an empty one. */
final class HeapNamespacedState<N, V> implements NamespacedState<N, V> {
    private final StateTable table;

    HeapNamespacedState(StateTable table) {
        this.table = table;
    }

    @Override
    public V get(N namespace) {
        Map<N, V> map = map();
        return map == null ? null : map.get(namespace);
    }

    /** Null removes the namespace. */
    @Override
    public void put(N namespace, V value) {
        if (value == null) {
            remove(namespace);
            return;
        }
        Map<N, V> map = map();
        if (map == null) {
            map = new HashMap<>(4);
            table.insert(map);
        }
        map.put(namespace, value);
    }

    @Override
    public void remove(N namespace) {
        Map<N, V> map = map();
        if (map != null && map.remove(namespace) != null && map.isEmpty()) {
            table.remove();
        }
    }

    @Override
    public void forEach(BiConsumer<N, V> action) {
        Map<N, V> map = map();
        if (map != null) {
            map.forEach(action);
        }
    }

    @Override
    public void clear() {
        table.remove();
    }

    @SuppressWarnings("unchecked")
    private Map<N, V> map() {
        int p = table.entry(false);
        return p < 0 ? null : (Map<N, V>) table.value(p);
    }
}
