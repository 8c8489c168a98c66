package io.millrace.api.table;

import io.millrace.api.functions.CoProcessFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.JoinFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.StateTtlConfig;
import java.time.Duration;
import java.util.Map;

/**
 * The keyed two-input function behind {@link ChangelogJoin}: per join key, each side's rows as a multiset (row, as
 * {@code +I}, to its count) in map state, with the side's retention as its time to live. A change of one side is
 * joined with every row of the other side; see {@link ChangelogJoin} for the records it emits. Task thread only;
 * the runtime sets the key before every call.
 */
final class ChangelogJoinProcess extends CoProcessFunction<Row, Row, Row> {
    private final JoinFunction<Row, Row, Row> function;
    private final ChangelogJoin.Kind kind;
    private final long leftRetention;
    private final long rightRetention;
    private transient MapState<Row, Integer> lefts;
    private transient MapState<Row, Integer> rights;

    ChangelogJoinProcess(JoinFunction<Row, Row, Row> function, ChangelogJoin.Kind kind, long leftRetention, long rightRetention) {
        this.function = function;
        this.kind = kind;
        this.leftRetention = leftRetention;
        this.rightRetention = rightRetention;
    }

    @Override
    public void open(RuntimeContext context) {
        lefts = context.state().getMapState(descriptor("changelog-join-left", leftRetention));
        rights = context.state().getMapState(descriptor("changelog-join-right", rightRetention));
    }

    private static MapStateDescriptor<Row, Integer> descriptor(String name, long retention) {
        MapStateDescriptor<Row, Integer> d = new MapStateDescriptor<>(name);
        if (retention > 0) {
            d.enableTimeToLive(StateTtlConfig.afterWrite(Duration.ofMillis(retention)));
        }
        return d;
    }

    @Override
    public void processElement1(Row change, Context ctx, Collector<Row> out) throws Exception {
        apply(change, true, ctx, out);
    }

    @Override
    public void processElement2(Row change, Context ctx, Collector<Row> out) throws Exception {
        apply(change, false, ctx, out);
    }

    private void apply(Row change, boolean fromLeft, Context ctx, Collector<Row> out) throws Exception {
        MapState<Row, Integer> own = fromLeft ? lefts : rights;
        MapState<Row, Integer> other = fromLeft ? rights : lefts;
        boolean keepOwn = fromLeft ? kind.keepLeft : kind.keepRight;
        boolean keepOther = fromLeft ? kind.keepRight : kind.keepLeft;
        Row row = change.withKind(RowKind.INSERT);
        Integer count = own.get(row);
        boolean adding = change.kind().isAddition();
        if (!adding && count == null) {
            ctx.output(ChangelogJoin.REJECTED, new RejectedChange(change, "retracts a " + (fromLeft ? "left" : "right") + " row of key "
                    + ctx.currentKey() + " that the join does not hold" + (retention(fromLeft) > 0 ? " (or no longer holds: state retention)" : "")));
            return;
        }
        boolean ownWasEmpty = adding && own.isEmpty();
        if (adding) {
            own.put(row, count == null ? 1 : count + 1);
        } else if (count == 1) {
            own.remove(row);
        } else {
            own.put(row, count - 1);
        }
        boolean ownNowEmpty = !adding && own.isEmpty();
        RowKind emitted = adding ? RowKind.INSERT : RowKind.DELETE;
        boolean matched = false;
        for (Map.Entry<Row, Integer> e : other.entries()) {
            matched = true;
            Row match = e.getKey();
            for (int n = e.getValue(); n > 0; n--) {
                if (keepOther && ownWasEmpty) {
                    emit(out, null, match, fromLeft, RowKind.DELETE);
                }
                emit(out, row, match, fromLeft, emitted);
                if (keepOther && ownNowEmpty) {
                    emit(out, null, match, fromLeft, RowKind.INSERT);
                }
            }
        }
        if (!matched && keepOwn) {
            emit(out, row, null, fromLeft, emitted);
        }
    }

    private long retention(boolean left) {
        return left ? leftRetention : rightRetention;
    }

    /** Emits the joined row of {@code own} and {@code match} (either may be null), in left, right order. */
    private void emit(Collector<Row> out, Row own, Row match, boolean ownIsLeft, RowKind kind) throws Exception {
        Row joined = ownIsLeft ? function.join(own, match) : function.join(match, own);
        if (joined == null) {
            throw new IllegalStateException("changelog join: the join function returned null for " + (ownIsLeft ? own : match) + " and "
                    + (ownIsLeft ? match : own));
        }
        out.collect(joined.withKind(kind));
    }
}
