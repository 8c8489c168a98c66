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
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The keyed two-input function behind {@link TemporalJoin}: input 1 the probe rows, input 2 the table's changelog.
 * Per key it keeps the changes in a sorted map by timestamp and the waiting probe rows in a sorted map with one entry
 * per row, keyed by {@link #waitingKey (timestamp, arrival number)}, so that adding a row writes that row alone (a
 * key's rows at one timestamp are never read back and rewritten as a list, which on RocksDB would cost a quadratic
 * number of row encodings for a busy key); and one event-time timer per timestamp of either. The timer at {@code t}
 * joins the rows at {@code t} in arrival order and removes the versions before the one valid at {@code t}. Task
 * thread only; the runtime sets the key before every call.
 */
final class TemporalJoinProcess<K, T, R> extends CoProcessFunction<T, Row, R> {
    private final JoinFunction<T, Row, R> function;
    private final boolean outer;
    private final OutputTag<Object> lateProbes;
    /** Waiting probe rows by {@link #waitingKey}. */
    private transient SortedMapState<String, T> waiting;
    /**
     * The arrival number of the key's next probe row and the number of its rows waiting; cleared when none waits, so
     * that the numbers restart at 0 (unique among the waiting rows, which is all the key needs) and an idle key keeps
     * nothing but its version.
     */
    private transient ValueState<long[]> arrivals;
    /** Waiting probe rows as a list per timestamp, the layout of savepoints of earlier versions: drained, never added to. */
    private transient MapState<Long, ArrayList<T>> waitingLists;
    private transient SortedMapState<Long, Row> versions;

    TemporalJoinProcess(JoinFunction<T, Row, R> function, boolean outer, OutputTag<Object> lateProbes) {
        this.function = function;
        this.outer = outer;
        this.lateProbes = lateProbes;
    }

    @Override
    public void open(RuntimeContext context) {
        waiting = context.state().getSortedMapState(new SortedMapStateDescriptor<>("temporal-join-waiting", String.class));
        arrivals = context.state().getState(new ValueStateDescriptor<>("temporal-join-arrivals"));
        waitingLists = context.state().getMapState(new MapStateDescriptor<>("temporal-join-probes"));
        versions = context.state().getSortedMapState(new SortedMapStateDescriptor<>("temporal-join-versions", Long.class));
    }

    @Override
    public void processElement1(T row, Context ctx, Collector<R> out) {
        long t = timestampOf(row, ctx, "probe row");
        if (t <= ctx.currentWatermark()) {
            ctx.output(lateProbes, row);
            return;
        }
        long[] a = arrivals.value();
        long n = a == null ? 0 : a[0];
        arrivals.update(new long[] {n + 1, a == null ? 1 : a[1] + 1}); // a new array: a snapshot may hold the old one
        waiting.put(waitingKey(t, n), row);
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
        List<T> rows = new ArrayList<>();
        ArrayList<T> listed = waitingLists.get(t);
        if (listed != null) {
            waitingLists.remove(t);
            rows.addAll(listed);
        }
        int joined = 0;
        for (Map.Entry<String, T> e : waiting.range(waitingKey(t, 0), t == Long.MAX_VALUE ? null : waitingKey(t + 1, 0))) {
            waiting.remove(e.getKey());
            rows.add(e.getValue());
            joined++;
        }
        if (joined > 0) {
            long[] a = arrivals.value();
            if (a == null || a[1] <= joined) {
                arrivals.clear();
            } else {
                arrivals.update(new long[] {a[0], a[1] - joined});
            }
        }
        if (valid != null || outer) {
            for (T row : rows) {
                out.collect(function.join(row, valid));
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

    /**
     * The key of a waiting probe row: its timestamp with the sign bit flipped, then its arrival number, each as 16 hex
     * digits, so that the keys' order (of their characters) is the order of (timestamp, arrival).
     */
    static String waitingKey(long timestamp, long arrival) {
        char[] c = new char[32];
        hex(timestamp ^ Long.MIN_VALUE, c, 0);
        hex(arrival, c, 16);
        return new String(c);
    }

    private static void hex(long v, char[] into, int at) {
        for (int i = 15; i >= 0; i--) {
            into[at + i] = HEX[(int) (v & 0xF)];
            v >>>= 4;
        }
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

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
