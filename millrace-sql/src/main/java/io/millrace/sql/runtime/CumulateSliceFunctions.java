package io.millrace.sql.runtime;

import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.row.Row;
import io.millrace.api.window.TimeWindow;

/**
 * The first stage of a cumulative window aggregation: per key and step, the accumulator of the aggregate calls
 * (pre-aggregated before the exchange like any tumbling window), handed on as a {@link CumulateSlice}.
 */
public final class CumulateSliceFunctions {
    private CumulateSliceFunctions() {}

    /** Folds rows into the accumulator and gives the accumulator itself as the result. */
    public static final class Accumulate implements AggregateFunction<Row, SqlAccumulator, SqlAccumulator> {
        private static final long serialVersionUID = 1L;
        private final WindowAggregateFunction calls;

        public Accumulate(AggregateCall[] calls) {
            this.calls = new WindowAggregateFunction(calls);
        }

        @Override
        public SqlAccumulator createAccumulator() {
            return calls.createAccumulator();
        }

        @Override
        public SqlAccumulator add(Row value, SqlAccumulator acc) {
            return calls.add(value, acc);
        }

        @Override
        public SqlAccumulator getResult(SqlAccumulator acc) {
            SqlAccumulator copy = calls.createAccumulator();
            System.arraycopy(acc.slots, 0, copy.slots, 0, acc.slots.length);
            return copy;
        }

        @Override
        public SqlAccumulator merge(SqlAccumulator a, SqlAccumulator b) {
            return calls.merge(a, b);
        }
    }

    /** Emits the step's accumulator with its key and end. */
    public static final class Emit extends ProcessWindowFunction<SqlAccumulator, CumulateSlice, Object, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(Object key, Context<TimeWindow> ctx, Iterable<SqlAccumulator> elements, Collector<CumulateSlice> out) {
            for (SqlAccumulator acc : elements) {
                out.collect(new CumulateSlice(key, ctx.window().end(), acc));
            }
        }
    }
}
