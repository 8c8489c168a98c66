package io.millrace.rocksdb;

import io.millrace.api.state.ValueState;

/** Value state: one row per key. {@link #value()} returns a fresh copy; change it and call {@link #update}. */
final class RocksValueState<T> implements ValueState<T> {
    private final StateColumn column;

    RocksValueState(StateColumn column) {
        this.column = column;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T value() {
        return (T) column.get(false);
    }

    /** Null clears the value. */
    @Override
    public void update(T value) {
        if (value == null) {
            column.delete();
        } else {
            column.put(value);
        }
    }

    @Override
    public void clear() {
        column.delete();
    }
}
