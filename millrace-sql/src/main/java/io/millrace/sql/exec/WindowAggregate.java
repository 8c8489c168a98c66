package io.millrace.sql.exec;

import io.millrace.api.DataStream;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.sql.runtime.AggregateCall;
import io.millrace.sql.runtime.CalcFunction;
import io.millrace.sql.runtime.Expr;
import io.millrace.sql.runtime.GroupKey;
import io.millrace.sql.runtime.WindowAggregateFunction;
import io.millrace.sql.runtime.WindowResultFunction;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A window aggregation over TUMBLE or HOP, grouped by the window and keys: keyed by the keys, then the core's
 * event-time window with an aggregate function, so it is computed from shared slices and pre-aggregated per key and
 * slice before the exchange. Emits one insert per window and key when the watermark passes the window's end.
 */
public final class WindowAggregate extends PhysicalNode {
    private final PhysicalNode input;
    private final WindowSpec window;
    private final Expr preFilter;
    private final GroupKey key;
    private final List<String> keyNames;
    private final AggregateCall[] calls;
    private final int[] layout;

    public WindowAggregate(PhysicalNode input, WindowSpec window, Expr preFilter, GroupKey key, List<String> keyNames, AggregateCall[] calls,
            int[] layout, RowType rowType) {
        super(rowType, -1);
        this.input = input;
        this.window = window;
        this.preFilter = preFilter;
        this.key = key;
        this.keyNames = keyNames;
        this.calls = calls;
        this.layout = layout;
    }

    @Override
    public List<PhysicalNode> inputs() {
        return List.of(input);
    }

    @Override
    public String kind() {
        return "WindowAggregate";
    }

    @Override
    public String details() {
        return "window=[" + window + "], groupBy=[" + String.join(", ", keyNames) + "], select=["
                + Arrays.stream(calls).map(AggregateCall::text).collect(Collectors.joining(", ")) + "]"
                + (preFilter == null ? "" : ", where=[pre-aggregation filter]");
    }

    @Override
    public DataStream<Row> translate(Translation t) {
        DataStream<Row> in = t.input(input);
        if (preFilter != null) {
            in = t.name(in.flatMap(new CalcFunction(preFilter, null)), "filter", "Calc(window filter)");
        }
        WindowResultFunction result = new WindowResultFunction(rowType(), key, keyNames.size(), layout);
        DataStream<Row> out = in.keyBy(key).window(window.assigner()).aggregate(new WindowAggregateFunction(calls), result);
        return t.name(out, "window-agg", "WindowAggregate(" + window + ")");
    }
}
