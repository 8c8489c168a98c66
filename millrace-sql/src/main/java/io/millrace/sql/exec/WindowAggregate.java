package io.millrace.sql.exec;

import io.millrace.api.DataStream;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.OutputTag;
import io.millrace.api.sink.Sink;
import io.millrace.api.window.Windows;
import java.time.Duration;
import io.millrace.sql.runtime.AggregateCall;
import io.millrace.sql.runtime.CalcFunction;
import io.millrace.sql.runtime.CumulateFunction;
import io.millrace.sql.runtime.CumulateSlice;
import io.millrace.sql.runtime.CumulateSliceFunctions;
import io.millrace.sql.runtime.Expr;
import io.millrace.sql.runtime.GroupKey;
import io.millrace.sql.runtime.LateRowFunction;
import io.millrace.sql.runtime.WindowAggregateFunction;
import io.millrace.sql.runtime.WindowResultFunction;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A window aggregation over TUMBLE, HOP, CUMULATE or SESSION, grouped by the window and keys: keyed by the keys, then
 * the core's event-time window with an aggregate function, so it is computed from shared slices and pre-aggregated per
 * key and slice before the exchange. CUMULATE is a tumbling window of one step (its slices), then a keyed function
 * that merges the steps of each period and emits each cumulative window when it closes; SESSION is the core's
 * session window keyed by the PARTITION BY keys. Emits one insert per window and key when the watermark passes the
 * window's end; the result carries {@code window_time} (end − 1 ms) as its timestamp.
 */
public final class WindowAggregate extends PhysicalNode {
    private final PhysicalNode input;
    private final WindowSpec window;
    private final Expr preFilter;
    private final GroupKey key;
    private final List<String> keyNames;
    private final AggregateCall[] calls;
    private final int[] layout;
    private final LateRows lateRows;

    /** Where rows too late for their windows go: a dead-letter table's sink and the layout of its columns. */
    public record LateRows(String table, Sink<Row> sink, RowType type, LateRowFunction.Column[] layout) {}

    public WindowAggregate(PhysicalNode input, WindowSpec window, Expr preFilter, GroupKey key, List<String> keyNames, AggregateCall[] calls,
            int[] layout, RowType rowType, int rowtime, LateRows lateRows) {
        super(rowType, rowtime);
        this.lateRows = lateRows;
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
                + (preFilter == null ? "" : ", where=[pre-aggregation filter]") + (lateRows == null ? "" : ", lateRows=[" + lateRows.table() + "]");
    }

    @Override
    public DataStream<Row> translate(Translation t) {
        DataStream<Row> in = t.input(input);
        if (preFilter != null) {
            in = t.name(in.flatMap(new CalcFunction(preFilter, null)), "filter", "Calc(window filter)");
        }
        WindowResultFunction result = new WindowResultFunction(rowType(), key, keyNames.size(), layout);
        OutputTag<Row> late = lateRows == null ? null : new OutputTag<>("late-rows");
        if (window.kind() == WindowSpec.Kind.CUMULATE) {
            var stepWindows = in.keyBy(key).window(Windows.tumbling(Duration.ofMillis(window.slide()), Duration.ofMillis(window.offset())));
            DataStream<CumulateSlice> steps = (late == null ? stepWindows : stepWindows.sideOutputLateData(late))
                    .aggregate(new CumulateSliceFunctions.Accumulate(calls), new CumulateSliceFunctions.Emit());
            steps = t.name(steps, "window-agg-steps", "WindowAggregate(" + window + ", steps)");
            lateRows(t, steps, late, in);
            DataStream<Row> out = steps.keyBy(new CumulateSlice.Key())
                    .process(new CumulateFunction(calls, result, window.size(), window.slide(), window.offset()));
            return t.name(out, "window-agg", "WindowAggregate(" + window + ")");
        }
        var windows = in.keyBy(key).window(window.assigner());
        DataStream<Row> out = (late == null ? windows : windows.sideOutputLateData(late)).aggregate(new WindowAggregateFunction(calls), result);
        out = t.name(out, "window-agg", "WindowAggregate(" + window + ")");
        lateRows(t, out, late, in);
        return out;
    }

    private void lateRows(Translation t, DataStream<?> windowed, OutputTag<Row> tag, DataStream<Row> in) {
        if (tag == null) {
            return;
        }
        String operator = "WindowAggregate(" + window + ")";
        DataStream<Row> rows = windowed.getSideOutput(tag).process(new LateRowFunction(input.rowType(), lateRows.type(), lateRows.layout(), operator));
        rows = t.name(rows, "late-rows", "LateRows(" + lateRows.table() + ")");
        rows.sinkTo(lateRows.sink()).uid(t.nextUid("late-rows-sink")).name("Sink(" + lateRows.table() + ")");
    }
}
