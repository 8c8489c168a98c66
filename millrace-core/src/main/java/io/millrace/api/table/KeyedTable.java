package io.millrace.api.table;

import io.millrace.api.DataStream;
import io.millrace.api.OutputTag;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.functions.RetractingAggregateFunction;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import java.util.Objects;

/**
 * A table with a primary key, materialized from a stream of its changes: the latest row per key, kept in keyed
 * state (checkpointed and rescaled like any). A stream and a table are two views of the same data: a table is
 * built from a changelog or an upsert stream, and its own changes are a stream again, {@link #toChangelog()} or
 * {@link #toUpserts()}.
 *
 * <p><b>Changelog input</b> ({@link #fromChangelog}): {@code +I} and {@code +U} set the key's row; {@code -U} is
 * the retraction that comes before a {@code +U} and changes nothing; {@code -D} removes the key's row. <b>Upsert
 * input</b> ({@link #fromUpserts}): each {@code +I} or {@code +U} record is the key's latest row, and a {@code -D}
 * record is a tombstone: only its key fields matter.
 *
 * <p><b>Output</b> ({@link #toChangelog()}), per key in the order of its input: {@code +I} of a key's first row,
 * {@code -U} of the previous row and {@code +U} of the new one when a row changes, nothing when it is set to an
 * equal row (so replayed upserts change nothing), {@code -D} of the stored row when it is removed.
 *
 * <p><b>Bad input</b> goes to the {@link #rejected()} side output with its reason and changes nothing: a
 * {@code -U} or {@code -D} of a key the table does not hold in a changelog, a {@code -U} in an upsert stream. A
 * tombstone of a key the table does not hold is no change in an upsert stream (deleting twice is deleting once).
 */
public final class KeyedTable<K> {
    /** Changes the table could not apply, with their reason. */
    public static final OutputTag<RejectedChange> REJECTED = new OutputTag<>("keyed-table-rejected");

    private final DataStream<Row> changes;

    private KeyedTable(DataStream<Row> changes) {
        this.changes = changes;
    }

    /** The table of a full changelog ({@code +I}, {@code -U}, {@code +U}, {@code -D}) with a primary key. */
    public static <K> KeyedTable<K> fromChangelog(DataStream<Row> changelog, KeySelector<Row, K> primaryKey) {
        return materialize(changelog, primaryKey, false, "table from changelog");
    }

    /** The table of an upsert stream: latest rows ({@code +I}/{@code +U}) and tombstones ({@code -D}) per key. */
    public static <K> KeyedTable<K> fromUpserts(DataStream<Row> upserts, KeySelector<Row, K> primaryKey) {
        return materialize(upserts, primaryKey, true, "table from upserts");
    }

    private static <K> KeyedTable<K> materialize(DataStream<Row> input, KeySelector<Row, K> primaryKey, boolean upserts, String name) {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(primaryKey, "primaryKey");
        return new KeyedTable<>(input.keyBy(primaryKey).process(new TableMaterializer<K>(upserts)).name(name));
    }

    /** The table's changes as a full changelog, as the class comment describes. */
    public DataStream<Row> toChangelog() {
        return changes;
    }

    /** The table's changes as an upsert stream: the changelog without its {@code -U} records. */
    public DataStream<Row> toUpserts() {
        return changes.filter(r -> r.kind() != RowKind.UPDATE_BEFORE).name("to upserts");
    }

    /** The input records the table could not apply. */
    public DataStream<RejectedChange> rejected() {
        return changes.getSideOutput(REJECTED);
    }

    /**
     * A running aggregation of the table's rows grouped by {@code groupKey}, whose result is a changelog: see
     * {@link ChangelogAggregate}. A row that changes its group is retracted from the old group and added to the new.
     */
    public <G, ACC, V> DataStream<Row> aggregate(KeySelector<Row, G> groupKey, RetractingAggregateFunction<Row, ACC, V> function,
            ChangelogAggregate.ResultRow<G, V> resultRow) {
        return changes.keyBy(groupKey).process(new ChangelogAggregate<>(function, resultRow)).name("aggregate");
    }
}
