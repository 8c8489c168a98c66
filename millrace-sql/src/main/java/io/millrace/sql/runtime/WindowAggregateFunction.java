package io.millrace.sql.runtime;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.row.Row;

/**
 * The aggregate calls of a window aggregation as one {@link AggregateFunction}: the window folds each row of a
 * (key, slice) into a {@link SqlAccumulator}, merges slices, and gives the results, one per call, to
 * {@link WindowResultFunction}.
 */
public final class WindowAggregateFunction implements AggregateFunction<Row, SqlAccumulator, Object[]> {
    private static final long serialVersionUID = 1L;

    private final AggregateCall[] calls;
    /** Per call, where its accumulator starts in the accumulator's longs. */
    private final int[] offsets;
    private final int longs;

    public WindowAggregateFunction(AggregateCall[] calls) {
        this.calls = calls;
        this.offsets = new int[calls.length];
        int at = 0;
        for (int i = 0; i < calls.length; i++) {
            offsets[i] = at;
            at += calls[i].width();
        }
        this.longs = at;
    }

    @Override
    public SqlAccumulator createAccumulator() {
        return new SqlAccumulator(longs);
    }

    @Override
    public SqlAccumulator add(Row value, SqlAccumulator acc) {
        for (int i = 0; i < calls.length; i++) {
            calls[i].add(value, acc.slots, offsets[i]);
        }
        return acc;
    }

    @Override
    public Object[] getResult(SqlAccumulator acc) {
        Object[] out = new Object[calls.length];
        for (int i = 0; i < calls.length; i++) {
            out[i] = calls[i].result(acc.slots, offsets[i]);
        }
        return out;
    }

    @Override
    public SqlAccumulator merge(SqlAccumulator a, SqlAccumulator b) {
        for (int i = 0; i < calls.length; i++) {
            calls[i].merge(a.slots, b.slots, offsets[i]);
        }
        return a;
    }
}
