package io.millrace.api.table;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.CoProcessFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.JoinFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.SortedMapState;
import io.millrace.api.state.SortedMapStateDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The keyed two-input function behind {@link TemporalJoin}: input 1 the probe rows, input 2 the table's changelog.
 * Per key it keeps the waiting probe rows by timestamp and the changes in a sorted map by timestamp, and one
 * event-time timer per timestamp of either. The timer at {@code t} joins the rows at {@code t} and removes the versions before the one
 * valid at {@code t}. Task thread only; the runtime sets the key before every call.
 */
final class TemporalJoinProcess<K, T, R> extends CoProcessFunction<T, Row, R> {
    private final JoinFunction<T, Row, R> function;
    private final boolean outer;
    private final OutputTag<Object> lateProbes;
    private transient MapState<Long, ArrayList<T>> waiting;
    private transient SortedMapState<Long, Row> versions;

    TemporalJoinProcess(JoinFunction<T, Row, R> function, boolean outer, OutputTag<Object> lateProbes) {
        this.function = function;
        this.outer = outer;
        this.lateProbes = lateProbes;
    }

    @Override
    public void open(RuntimeContext context) {
        waiting = context.state().getMapState(new MapStateDescriptor<>("temporal-join-probes"));
        versions = context.state().getSortedMapState(new SortedMapStateDescriptor<>("temporal-join-versions", Long.class));
    }

    @Override
    public void processElement1(T row, Context ctx, Collector<R> out) {
        long t = timestampOf(row, ctx, "probe row");
        if (t <= ctx.currentWatermark()) {
            ctx.output(lateProbes, row);
            return;
        }
        ArrayList<T> rows = waiting.get(t);
        if (rows == null) {
            rows = new ArrayList<>(2);
        }
        rows.add(row);
        waiting.put(t, rows);
        ctx.timerService().registerEventTimeTimer(t);
    }

    @Override
    public void processElement2(Row change, Context ctx, Collector<R> out) {
        long t = timestampOf(change, ctx, "table change");
        if (change.kind() == RowKind.UPDATE_BEFORE) {
            return; // the +U that follows replaces the version; a -U may carry the old row's time
        }
        long watermark = ctx.currentWatermark();
        if (t <= watermark) {
            ctx.output(TemporalJoin.REJECTED, new RejectedChange(change, "change of key " + ctx.currentKey() + " at " + t
                    + " arrived after the join's watermark (" + watermark + ") had passed it: rows up to the watermark are joined already"));
            return;
        }
        versions.put(t, change);
        ctx.timerService().registerEventTimeTimer(t);
    }

    /** Joins the probe rows at {@code t}, then keeps of the versions at or before {@code t} only the one valid at it. */
    @Override
    public void onTimer(long t, Context ctx, Collector<R> out) throws Exception {
        List<Map.Entry<Long, Row>> passed = new ArrayList<>();
        for (Map.Entry<Long, Row> e : t == Long.MAX_VALUE ? versions.entries() : versions.headMap(t + 1)) {
            passed.add(e);
        }
        Map.Entry<Long, Row> latest = passed.isEmpty() ? null : passed.get(passed.size() - 1);
        Row valid = latest != null && latest.getValue().kind().isAddition() ? latest.getValue().withKind(RowKind.INSERT) : null;
        ArrayList<T> rows = waiting.get(t);
        if (rows != null) {
            waiting.remove(t);
            if (valid != null || outer) {
                for (T row : rows) {
                    out.collect(function.join(row, valid));
                }
            }
        }
        long latestTime = latest == null ? Long.MIN_VALUE : latest.getKey();
        Row before = null;
        for (Map.Entry<Long, Row> e : passed) {
            Row change = e.getValue();
            if (change.kind().isRetraction() && (before == null || before.kind().isRetraction())) {
                ctx.output(TemporalJoin.REJECTED, new RejectedChange(change, "retracts key " + ctx.currentKey() + " at " + e.getKey()
                        + ", which had no version then"));
            }
            before = change;
            if (e.getKey() != latestTime || valid == null) {
                versions.remove(e.getKey());
            }
        }
    }

    private static long timestampOf(Object value, Context ctx, String what) {
        long t = ctx.timestamp();
        if (t == Long.MIN_VALUE) {
            String s = String.valueOf(value);
            throw new IllegalStateException("temporal join: a " + what + " has no event timestamp (" + (s.length() > 200 ? s.substring(0, 200) + "…" : s)
                    + "); give its source a WatermarkStrategy with timestamps, or call assignTimestampsAndWatermarks before the join");
        }
        return t;
    }
}
