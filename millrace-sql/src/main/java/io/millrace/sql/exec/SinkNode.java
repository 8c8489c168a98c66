package io.millrace.sql.exec;

import io.millrace.api.DataStream;
import io.millrace.api.row.Row;
import io.millrace.api.sink.Sink;
import java.util.List;

/** Writes the query's rows to a table's connector, or to the collector of a query run from Java. */
public final class SinkNode extends PhysicalNode {
    private final PhysicalNode input;
    private final String table;
    private final Sink<Row> sink;

    public SinkNode(PhysicalNode input, String table, Sink<Row> sink) {
        super(input.rowType(), input.rowtime());
        this.input = input;
        this.table = table;
        this.sink = sink;
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
        return "table=[" + table + "]";
    }

    @Override
    public DataStream<Row> translate(Translation t) {
        DataStream<Row> in = t.input(input);
        in.sinkTo(sink).uid(t.nextUid("sink")).name("Sink(" + table + ")");
        return in;
    }
}
