package io.millrace.rocksdb;

import io.millrace.api.functions.ReduceFunction;
import io.millrace.api.state.ReducingState;
import java.util.Objects;

/** Reducing state: one row per key holding the reduced value. */
final class RocksReducingState<T> implements ReducingState<T> {
    private final StateColumn column;
    private final ReduceFunction<T> reducer;

    RocksReducingState(StateColumn column, ReduceFunction<T> reducer) {
        this.column = column;
        this.reducer = reducer;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T get() {
        return (T) column.get(false);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void add(T value) {
        Objects.requireNonNull(value, () -> "reducing state '" + column.name + "' does not accept null");
        T current = (T) column.get(true);
        if (current == null) {
            column.put(value);
            return;
        }
        try {
            column.put(reducer.reduce(current, value));
        } catch (RuntimeException ex) {
            throw ex;
        } catch (Exception ex) {
            throw new IllegalStateException("reduce function of state '" + column.name + "' failed", ex);
        }
    }

    @Override
    public void clear() {
        column.delete();
    }
}
