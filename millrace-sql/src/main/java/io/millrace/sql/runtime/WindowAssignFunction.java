package io.millrace.sql.runtime;

import io.millrace.api.functions.Collector;
import io.millrace.api.functions.FlatMapFunction;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowBuilder;
import io.millrace.api.row.RowType;

/**
 * A window table function on its own (not under an aggregation): each row comes out once per window it belongs to,
 * with the window's {@code window_start} and {@code window_end} appended. Tumbling windows when
 * {@code slide == size}.
 */
public final class WindowAssignFunction implements FlatMapFunction<Row, Row> {
    private static final long serialVersionUID = 1L;

    private final RowType outType;
    private final int timeColumn;
    private final long size;
    private final long slide;
    private final long offset;
    private transient RowBuilder builder;

    public WindowAssignFunction(RowType outType, int timeColumn, long size, long slide, long offset) {
        this.outType = outType;
        this.timeColumn = timeColumn;
        this.size = size;
        this.slide = slide;
        this.offset = offset;
    }

    @Override
    public void flatMap(Row row, Collector<Row> out) {
        if (builder == null) {
            builder = Row.builder(outType);
        }
        long ts = row.getLong(timeColumn);
        long lastStart = ts - Math.floorMod(ts - offset, slide);
        int n = row.size();
        for (long start = lastStart; start > ts - size; start -= slide) {
            for (int i = 0; i < n; i++) {
                RowProjector.copy(row, i, builder, i, outType);
            }
            builder.setTimestamp(n, start);
            builder.setTimestamp(n + 1, start + size);
            out.collect(builder.build());
        }
    }
}
