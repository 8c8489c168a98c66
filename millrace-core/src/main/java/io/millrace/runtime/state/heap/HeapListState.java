package io.millrace.runtime.state.heap;

import io.millrace.api.state.ListState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * List state: the table holds an {@link ArrayList}, never an empty one (the key's entry goes when the
 * list would become empty). {@link #get()} returns a read-only view of the stored list.
 */
final class HeapListState<T> implements ListState<T> {
    private final StateTable table;

    HeapListState(StateTable table) {
        this.table = table;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Iterable<T> get() {
        List<T> list = (List<T>) table.get();
        return list == null ? List.of() : Collections.unmodifiableList(list);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void add(T value) {
        Objects.requireNonNull(value, () -> "list state '" + table.name + "' does not accept null");
        int p = table.entry(true);
        if (p < 0) {
            List<T> list = new ArrayList<>(4);
            list.add(value);
            table.insert(list);
        } else {
            ((List<T>) table.value(p)).add(value);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void addAll(List<T> values) {
        if (values.isEmpty()) {
            return;
        }
        checkNoNulls(values);
        int p = table.entry(true);
        if (p < 0) {
            table.insert(new ArrayList<>(values));
        } else {
            ((List<T>) table.value(p)).addAll(values);
        }
    }

    /** Replaces the list; null or empty clears it. */
    @Override
    public void update(List<T> values) {
        if (values == null || values.isEmpty()) {
            table.remove();
            return;
        }
        checkNoNulls(values);
        table.put(new ArrayList<>(values));
    }

    @Override
    public void clear() {
        table.remove();
    }

    private void checkNoNulls(List<T> values) {
        for (T v : values) {
            Objects.requireNonNull(v, () -> "list state '" + table.name + "' does not accept null");
        }
    }
}
