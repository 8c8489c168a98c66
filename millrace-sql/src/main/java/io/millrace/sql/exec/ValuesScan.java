package io.millrace.sql.exec;

import io.millrace.api.DataStream;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import java.util.List;

/** The rows of a {@code VALUES} clause: a bounded stream read by one subtask, without event time. */
public final class ValuesScan extends PhysicalNode {
    private final List<Row> rows;

    public ValuesScan(List<Row> rows, RowType rowType) {
        super(rowType, -1);
        this.rows = List.copyOf(rows);
    }

    @Override
    public List<PhysicalNode> inputs() {
        return List.of();
    }

    @Override
    public String kind() {
        return "Values";
    }

    @Override
    public String details() {
        return "rows=[" + rows.size() + "]";
    }

    @Override
    public DataStream<Row> translate(Translation t) {
        return t.name(t.pipeline().fromCollection(rows), "values", "Values");
    }
}
