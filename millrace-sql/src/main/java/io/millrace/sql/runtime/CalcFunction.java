package io.millrace.sql.runtime;

import io.millrace.api.functions.Collector;
import io.millrace.api.functions.FlatMapFunction;
import io.millrace.api.row.Row;

/** A filter and a projection in one operator: rows whose condition is not TRUE are left out (SQL's WHERE). */
public final class CalcFunction implements FlatMapFunction<Row, Row> {
    private static final long serialVersionUID = 1L;

    private final Expr condition;
    private final RowProjector projector;

    /** {@code condition} null: every row; {@code projector} null: rows unchanged. */
    public CalcFunction(Expr condition, RowProjector projector) {
        this.condition = condition;
        this.projector = projector;
    }

    @Override
    public void flatMap(Row value, Collector<Row> out) {
        if (condition != null && condition.eval(value) != Boolean.TRUE) {
            return;
        }
        if (projector == null) {
            out.collect(value);
        } else {
            Row projected = projector.project(value);
            out.collect(value.kind() == io.millrace.api.row.RowKind.INSERT ? projected : projected.withKind(value.kind()));
        }
    }
}
