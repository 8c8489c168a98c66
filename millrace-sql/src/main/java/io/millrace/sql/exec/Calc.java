package io.millrace.sql.exec;

import io.millrace.api.DataStream;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.sql.runtime.CalcFunction;
import io.millrace.sql.runtime.CurrentWatermark;
import io.millrace.sql.runtime.Expr;
import io.millrace.sql.runtime.RowProjector;
import java.util.List;

/** A filter and/or a projection, one chained operator. */
public final class Calc extends PhysicalNode {
    private final PhysicalNode input;
    private final Expr condition;
    private final RowProjector projector;
    private final String text;
    private final boolean readsWatermark;

    public Calc(PhysicalNode input, Expr condition, RowProjector projector, RowType rowType, int rowtime, String text) {
        this(input, condition, projector, rowType, rowtime, text, false);
    }

    /** With {@code readsWatermark}, the expressions use {@code CURRENT_WATERMARK}: the operator gives them its watermark. */
    public Calc(PhysicalNode input, Expr condition, RowProjector projector, RowType rowType, int rowtime, String text, boolean readsWatermark) {
        super(rowType, rowtime);
        this.input = input;
        this.condition = condition;
        this.projector = projector;
        this.text = text;
        this.readsWatermark = readsWatermark;
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
        if (readsWatermark) {
            return t.name(in.process(new CurrentWatermark.Calc(condition, projector)), "calc", "Calc(" + text + ")");
        }
        return t.name(in.flatMap(new CalcFunction(condition, projector)), "calc", "Calc(" + text + ")");
    }
}
