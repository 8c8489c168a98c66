package io.millrace.sql.exec;

import io.millrace.api.DataStream;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.sql.runtime.CalcFunction;
import io.millrace.sql.runtime.Expr;
import io.millrace.sql.runtime.RowProjector;
import java.util.List;

/** A filter and/or a projection, one chained operator. */
public final class Calc extends PhysicalNode {
    private final PhysicalNode input;
    private final Expr condition;
    private final RowProjector projector;
    private final String text;

    public Calc(PhysicalNode input, Expr condition, RowProjector projector, RowType rowType, int rowtime, String text) {
        super(rowType, rowtime);
        this.input = input;
        this.condition = condition;
        this.projector = projector;
        this.text = text;
    }

    @Override
    public List<PhysicalNode> inputs() {
        return List.of(input);
    }

    @Override
    public String kind() {
        return "Calc";
    }

    @Override
    public String details() {
        return text;
    }

    @Override
    public DataStream<Row> translate(Translation t) {
        DataStream<Row> in = t.input(input);
        return t.name(in.flatMap(new CalcFunction(condition, projector)), "calc", "Calc(" + text + ")");
    }
}
