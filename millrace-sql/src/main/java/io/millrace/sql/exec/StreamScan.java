package io.millrace.sql.exec;

import io.millrace.api.DataStream;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import java.util.List;

/** Reads a stream registered from Java: its records as they are, with their timestamps and watermarks. */
public final class StreamScan extends PhysicalNode {
    private final String table;
    private final DataStream<Row> stream;

    public StreamScan(String table, DataStream<Row> stream, RowType rowType, int rowtime) {
        super(rowType, rowtime);
        this.table = table;
        this.stream = stream;
    }

    @Override
    public List<PhysicalNode> inputs() {
        return List.of();
    }

    @Override
    public String kind() {
        return "DataStreamScan";
    }

    @Override
    public String details() {
        return "table=[" + table + "]";
    }

    @Override
    public DataStream<Row> translate(Translation t) {
        if (stream.pipeline() != t.pipeline()) {
            throw new IllegalStateException("table '" + table + "' is a stream of another pipeline: query it with toDataStream on the "
                    + "pipeline it belongs to");
        }
        return stream;
    }
}
