package io.millrace.sql.exec;

import io.millrace.api.DataStream;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.Sink;
import java.util.List;

/** Writes the query's rows to a table's connector, or to the collector of a query run from Java. */
public final class SinkNode extends PhysicalNode {
    private final PhysicalNode input;
    private final String table;
    private final Sink<Row> sink;

    private final int[] key;

    public SinkNode(PhysicalNode input, String table, Sink<Row> sink) {
        this(input, table, sink, new int[0]);
    }

    /** A sink whose rows go to its subtasks by the values of the columns {@code key} (none: rows stay where they are). */
    public SinkNode(PhysicalNode input, String table, Sink<Row> sink, int[] key) {
        super(input.rowType(), input.rowtime());
        this.input = input;
        this.table = table;
        this.sink = sink;
        this.key = key.clone();
    }

    /** The table written to. */
    public String table() {
        return table;
    }

    @Override
    public List<PhysicalNode> inputs() {
        return List.of(input);
    }

    @Override
    public String kind() {
        return "Sink";
    }

    @Override
    public String details() {
        if (key.length == 0) {
            return "table=[" + table + "]";
        }
        StringBuilder k = new StringBuilder();
        for (int i : key) {
            k.append(k.length() == 0 ? "" : ", ").append(rowType().name(i));
        }
        return "table=[" + table + "], distribution=[hash[" + k + "]]";
    }

    @Override
    public DataStream<Row> translate(Translation t) {
        DataStream<Row> in = t.input(input);
        DataStream<Row> rows = key.length == 0 ? in : in.keyBy(new SinkKey(key, rowType()));
        rows.sinkTo(sink).uid(t.nextUid("sink")).name("Sink(" + table + ")");
        return in;
    }

    /** The values of the sink's key columns, as an insert row (whatever the kind of the row they come from). */
    static final class SinkKey implements KeySelector<Row, Row> {
        private static final long serialVersionUID = 1L;
        private final int[] fields;
        private final RowType keyType;

        SinkKey(int[] fields, RowType type) {
            this.fields = fields;
            RowType.Builder b = RowType.builder();
            for (int f : fields) {
                b.nullableField(type.name(f), type.type(f));
            }
            this.keyType = b.build();
        }

        @Override
        public Row getKey(Row row) {
            Object[] v = new Object[fields.length];
            for (int i = 0; i < fields.length; i++) {
                v[i] = row.getField(fields[i]);
            }
            return Row.of(keyType, v);
        }
    }
}
