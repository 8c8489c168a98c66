package io.millrace.rocksdb;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.state.AggregatingState;

/** Aggregating state: one row per key holding the accumulator; it exists only once a value was added. */
final class RocksAggregatingState<IN, ACC, OUT> implements AggregatingState<IN, OUT> {
    private final StateColumn column;
    private final AggregateFunction<IN, ACC, OUT> function;

    RocksAggregatingState(StateColumn column, AggregateFunction<IN, ACC, OUT> function) {
        this.column = column;
        this.function = function;
    }

    @Override
    @SuppressWarnings("unchecked")
    public OUT get() {
        Object acc = column.get(false);
        return acc == null ? null : function.getResult((ACC) acc);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void add(IN value) {
        ACC acc = (ACC) column.get(true);
        column.put(function.add(value, acc == null ? function.createAccumulator() : acc));
    }

    @Override
    public void clear() {
        column.delete();
    }
}
