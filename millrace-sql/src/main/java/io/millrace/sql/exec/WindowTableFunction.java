package io.millrace.sql.exec;

import io.millrace.api.DataStream;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.sql.runtime.WindowAssignFunction;
import java.util.List;

/**
 * TUMBLE, HOP or CUMULATE not under an aggregation: each row once per window, with {@code window_start},
 * {@code window_end} and {@code window_time}.
 */
public final class WindowTableFunction extends PhysicalNode {
    private final PhysicalNode input;
    private final WindowSpec window;

    public WindowTableFunction(PhysicalNode input, WindowSpec window, RowType rowType) {
        super(rowType, input.rowtime());
        this.input = input;
        this.window = window;
    }

    @Override
    public List<PhysicalNode> inputs() {
        return List.of(input);
    }

    @Override
    public String kind() {
        return "WindowTableFunction";
    }

    @Override
    public String details() {
        return "window=[" + window + "]";
    }

    @Override
    public DataStream<Row> translate(Translation t) {
        DataStream<Row> in = t.input(input);
        WindowAssignFunction f = new WindowAssignFunction(rowType(), window.timeColumn(), window.size(), window.slide(), window.offset(),
                window.kind() == WindowSpec.Kind.CUMULATE);
        return t.name(in.flatMap(f), "window-tvf", "WindowTableFunction(" + window + ")");
    }
}
