package io.millrace.api.table;

import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;

/**
 * Keeps the latest row per primary key and emits the table's changes as a full changelog; the operator behind
 * {@link KeyedTable}. See {@link KeyedTable} for what each kind of input does, in changelog and upsert mode.
 */
final class TableMaterializer<K> extends KeyedProcessFunction<K, Row, Row> {
    private final boolean upserts;
    private transient ValueState<Row> latest;

    TableMaterializer(boolean upserts) {
        this.upserts = upserts;
    }

    @Override
    public void open(RuntimeContext context) {
        latest = context.state().getState(new ValueStateDescriptor<>("table-rows"));
    }

    @Override
    public void processElement(Row row, Context<K> ctx, Collector<Row> out) throws Exception {
        Row previous = latest.value();
        switch (row.kind()) {
            case INSERT, UPDATE_AFTER -> {
                Row now = row.withKind(RowKind.INSERT);
                if (previous == null) {
                    out.collect(now);
                } else if (!previous.equals(now)) {
                    out.collect(previous.withKind(RowKind.UPDATE_BEFORE));
                    out.collect(row.withKind(RowKind.UPDATE_AFTER));
                } else {
                    return;
                }
                latest.update(now);
            }
            case UPDATE_BEFORE -> {
                if (upserts) {
                    ctx.output(KeyedTable.REJECTED, new RejectedChange(row, "an upsert stream holds no -U records (key " + ctx.currentKey() + ")"));
                } else if (previous == null) {
                    ctx.output(KeyedTable.REJECTED, new RejectedChange(row, "updates key " + ctx.currentKey() + ", which the table does not hold"));
                }
            }
            case DELETE -> {
                if (previous != null) {
                    latest.clear();
                    out.collect(previous.withKind(RowKind.DELETE));
                } else if (!upserts) {
                    ctx.output(KeyedTable.REJECTED, new RejectedChange(row, "deletes key " + ctx.currentKey() + ", which the table does not hold"));
                }
            }
        }
    }
}
