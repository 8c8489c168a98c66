package io.millrace.rocksdb;

import io.millrace.api.state.ListState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * List state: one row per key holding the whole list, never an empty one, in the list row format of
 * {@link ListRows}. Without TTL the list goes through the state cache: adding to a cached
 * list adds to it, adding to one not cached collects the elements for one RocksDB merge at write-back (no
 * read), and {@link #get()} is a read-only view of the cached list. With TTL (or the cache off) adding is a
 * merge without TTL and a read and rewrite with it (the row's expiry is renewed), and {@link #get()} decodes
 * the row into a read-only copy.
 */
final class RocksListState<T> implements ListState<T> {
    private final StateColumn column;
    /** The one element of an {@link #add}, so that adding allocates no list. */
    private final ArrayList<T> single = new ArrayList<>(1);

    RocksListState(StateColumn column) {
        this.column = column;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Iterable<T> get() {
        List<T> list = (List<T>) column.getList(false);
        return list == null ? List.of() : Collections.unmodifiableList(list);
    }

    @Override
    public void add(T value) {
        Objects.requireNonNull(value, () -> "list state '" + column.name + "' does not accept null");
        single.add(value);
        try {
            column.appendList(single);
        } finally {
            single.clear();
        }
    }

    @Override
    public void addAll(List<T> values) {
        if (values.isEmpty()) {
            return;
        }
        checkNoNulls(values);
        column.appendList(values);
    }

    /** Replaces the list; null or empty clears it. */
    @Override
    public void update(List<T> values) {
        if (values == null || values.isEmpty()) {
            column.delete();
            return;
        }
        checkNoNulls(values);
        column.putList(values);
    }

    @Override
    public void clear() {
        column.delete();
    }

    private void checkNoNulls(List<T> values) {
        for (T v : values) {
            Objects.requireNonNull(v, () -> "list state '" + column.name + "' does not accept null");
        }
    }
}
