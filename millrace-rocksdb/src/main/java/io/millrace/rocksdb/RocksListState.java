package io.millrace.rocksdb;

import io.millrace.api.state.ListState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * List state: one row per key holding the whole list, never an empty one. Adding reads, appends and
 * writes the list back. {@link #get()} is a read-only copy.
 */
final class RocksListState<T> implements ListState<T> {
    private final StateColumn column;

    RocksListState(StateColumn column) {
        this.column = column;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Iterable<T> get() {
        List<T> list = (List<T>) column.get(false);
        return list == null ? List.of() : Collections.unmodifiableList(list);
    }

    @Override
    public void add(T value) {
        Objects.requireNonNull(value, () -> "list state '" + column.name + "' does not accept null");
        ArrayList<T> list = current();
        list.add(value);
        column.put(list);
    }

    @Override
    public void addAll(List<T> values) {
        if (values.isEmpty()) {
            return;
        }
        checkNoNulls(values);
        ArrayList<T> list = current();
        list.addAll(values);
        column.put(list);
    }

    /** Replaces the list; null or empty clears it. */
    @Override
    public void update(List<T> values) {
        if (values == null || values.isEmpty()) {
            column.delete();
            return;
        }
        checkNoNulls(values);
        column.put(new ArrayList<>(values));
    }

    @Override
    public void clear() {
        column.delete();
    }

    @SuppressWarnings("unchecked")
    private ArrayList<T> current() {
        ArrayList<T> list = (ArrayList<T>) column.get(true);
        return list == null ? new ArrayList<>(4) : list;
    }

    private void checkNoNulls(List<T> values) {
        for (T v : values) {
            Objects.requireNonNull(v, () -> "list state '" + column.name + "' does not accept null");
        }
    }
}
