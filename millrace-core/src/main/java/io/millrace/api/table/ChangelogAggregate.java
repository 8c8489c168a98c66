package io.millrace.api.table;

import io.millrace.api.OutputTag;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RetractingAggregateFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import java.io.Serializable;
import java.util.Objects;

/**
 * A running aggregation per key over a changelog, whose result is a changelog itself: for each key (group), the
 * rows of kind {@code +I}/{@code +U} are added to the accumulator and those of kind {@code -U}/{@code -D} retracted
 * from it, and every change of the group's result is emitted: {@code +I} for the group's first result,
 * {@code -U} of the previous result and {@code +U} of the new one when it changes (nothing when it stays equal),
 * {@code -D} of the last result when the group's last row is retracted (its state is then removed).
 *
 * <pre>
 *   changes.keyBy(r -&gt; r.getString(0))
 *          .process(new ChangelogAggregate&lt;&gt;(new SumOfValues(), (machine, sum) -&gt; Row.of(TOTALS, machine, sum)))
 * </pre>
 *
 * <p>A retraction for a group that holds no rows (never inserted, or all retracted already) changes nothing and
 * goes to the {@link #REJECTED} side output with its reason. A retraction of a row that was never added to a group
 * that holds other rows cannot be detected: the accumulator does not keep the rows.
 *
 * <p>State: one value per group, holding the accumulator, the number of rows and the result last emitted;
 * checkpointed and rescaled like any keyed state.
 */
public final class ChangelogAggregate<K, ACC, V> extends KeyedProcessFunction<K, Row, Row> {
    /** Retractions for a group that holds no rows. */
    public static final OutputTag<RejectedChange> REJECTED = new OutputTag<>("changelog-aggregate-rejected");

    private final RetractingAggregateFunction<Row, ACC, V> function;
    private final ResultRow<K, V> resultRow;
    private transient ValueState<Group<ACC>> groups;

    /** Builds a result row from a group's key and the aggregate function's result; must be deterministic. */
    @FunctionalInterface
    public interface ResultRow<K, V> extends Serializable {
        Row toRow(K key, V result);
    }

    /** The state of one group: its accumulator, how many rows it holds, and the result row emitted last. */
    record Group<ACC>(ACC accumulator, long rows, Row emitted) {}

    public ChangelogAggregate(RetractingAggregateFunction<Row, ACC, V> function, ResultRow<K, V> resultRow) {
        this.function = Objects.requireNonNull(function, "function");
        this.resultRow = Objects.requireNonNull(resultRow, "resultRow");
    }

    @Override
    public void open(RuntimeContext context) {
        groups = context.state().getState(new ValueStateDescriptor<>("changelog-aggregate"));
    }

    @Override
    public void processElement(Row row, Context<K> ctx, Collector<Row> out) throws Exception {
        Group<ACC> group = groups.value();
        ACC acc;
        long rows;
        if (row.kind().isAddition()) {
            acc = function.add(row, group == null ? function.createAccumulator() : group.accumulator());
            rows = group == null ? 1 : group.rows() + 1;
        } else if (group == null) {
            ctx.output(REJECTED, new RejectedChange(row, "retracts a row from group " + ctx.currentKey() + ", which holds no rows"));
            return;
        } else {
            acc = function.retract(row, group.accumulator());
            rows = group.rows() - 1;
        }
        Row previous = group == null ? null : group.emitted();
        if (rows == 0) {
            groups.clear();
            out.collect(previous.withKind(RowKind.DELETE));
            return;
        }
        Row now = resultRow.toRow(ctx.currentKey(), function.getResult(acc));
        if (previous == null) {
            out.collect(now.withKind(RowKind.INSERT));
        } else if (!previous.equals(now)) {
            out.collect(previous.withKind(RowKind.UPDATE_BEFORE));
            out.collect(now.withKind(RowKind.UPDATE_AFTER));
        } else {
            now = previous;
        }
        groups.update(new Group<>(acc, rows, now.withKind(RowKind.INSERT)));
    }
}
