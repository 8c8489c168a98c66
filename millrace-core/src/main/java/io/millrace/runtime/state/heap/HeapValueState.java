package io.millrace.runtime.state.heap;

import io.millrace.api.state.ValueState;

/** Value state: the table holds the value itself; a read is one lookup. */
final class HeapValueState<T> implements ValueState<T> {
    private final StateTable table;

    HeapValueState(StateTable table) {
        this.table = table;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T value() {
        return (T) table.get();
    }

    /** Null clears the value. */
    @Override
    public void update(T value) {
        if (value == null) {
            table.remove();
        } else {
            table.put(value);
        }
    }

    @Override
    public void clear() {
        table.remove();
    }
}
