package io.millrace.runtime.state.heap;

import io.millrace.api.functions.ReduceFunction;
import io.millrace.api.state.ReducingState;
import java.util.Objects;

/** Reducing state: the table holds the reduced value. */
final class HeapReducingState<T> implements ReducingState<T> {
    private final StateTable table;
    private final ReduceFunction<T> reducer;

    HeapReducingState(StateTable table, ReduceFunction<T> reducer) {
        this.table = table;
        this.reducer = reducer;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T get() {
        return (T) table.get();
    }

    @Override
    @SuppressWarnings("unchecked")
    public void add(T value) {
        Objects.requireNonNull(value, () -> "reducing state '" + table.name + "' does not accept null");
        int p = table.entry(true);
        if (p < 0) {
            table.insert(value);
            return;
        }
        try {
            table.setValue(p, reducer.reduce((T) table.value(p), value));
        } catch (RuntimeException ex) {
            throw ex;
        } catch (Exception ex) {
            throw new IllegalStateException("reduce function of state '" + table.name + "' failed", ex);
        }
    }

    @Override
    public void clear() {
        table.remove();
    }
}
