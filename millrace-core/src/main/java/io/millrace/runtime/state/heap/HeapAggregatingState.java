package io.millrace.runtime.state.heap;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.state.AggregatingState;

/** Aggregating state: the table holds the accumulator; it exists only once a value was added. */
final class HeapAggregatingState<IN, ACC, OUT> implements AggregatingState<IN, OUT> {
    private final StateTable table;
    private final AggregateFunction<IN, ACC, OUT> function;

    HeapAggregatingState(StateTable table, AggregateFunction<IN, ACC, OUT> function) {
        this.table = table;
        this.function = function;
    }

    @Override
    @SuppressWarnings("unchecked")
    public OUT get() {
        Object acc = table.get();
        return acc == null ? null : function.getResult((ACC) acc);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void add(IN value) {
        int p = table.entry(true);
        if (p < 0) {
            table.insert(function.add(value, function.createAccumulator()));
        } else {
            table.setValue(p, function.add(value, (ACC) table.value(p)));
        }
    }

    @Override
    public void clear() {
        table.remove();
    }
}
