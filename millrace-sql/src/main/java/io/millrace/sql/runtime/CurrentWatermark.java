package io.millrace.sql.runtime;

import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessFunction;
import io.millrace.api.row.Row;

/**
 * Flink's {@code CURRENT_WATERMARK(ts)}: the watermark of the operator evaluating the expression, null before its
 * first watermark. A Calc that uses it runs as {@link Calc}, which publishes its watermark to the expressions of the
 * row it evaluates on its own thread.
 */
public final class CurrentWatermark {
    private CurrentWatermark() {}

    private static final ThreadLocal<long[]> CURRENT = ThreadLocal.withInitial(() -> new long[] {Long.MIN_VALUE});

    /** The watermark published for the row being evaluated on this thread, or null when there is none yet. */
    public static Long get() {
        long w = CURRENT.get()[0];
        return w == Long.MIN_VALUE ? null : w;
    }

    /** A filter and projection whose expressions read the watermark the row meets. */
    public static final class Calc extends ProcessFunction<Row, Row> {
        private static final long serialVersionUID = 1L;
        private final CalcFunction calc;
        private transient long[] slot;

        public Calc(Expr condition, RowProjector projector) {
            this.calc = new CalcFunction(condition, projector);
        }

        @Override
        public void processElement(Row value, Context ctx, Collector<Row> out) {
            if (slot == null) {
                slot = CURRENT.get();
            }
            long before = slot[0];
            slot[0] = ctx.currentWatermark();
            try {
                calc.flatMap(value, out);
            } finally {
                slot[0] = before;
            }
        }
    }
}
