package io.millrace.sql.runtime;

import io.millrace.api.functions.Collector;
import io.millrace.api.functions.FlatMapFunction;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowBuilder;
import io.millrace.api.row.RowType;

/**
 * A window table function on its own (not under an aggregation): each row comes out once per window it belongs to,
 * with the window's {@code window_start}, {@code window_end} and {@code window_time} (end − 1 ms) appended. Tumbling
 * windows when {@code slide == size}; with {@code cumulative}, the windows {@code [start, start + k·slide)} of the
 * row's {@code size}-long period that contain it.
 */
public final class WindowAssignFunction implements FlatMapFunction<Row, Row> {
    private static final long serialVersionUID = 1L;

    private final RowType outType;
    private final int timeColumn;
    private final long size;
    private final long slide;
    private final long offset;
    private final boolean cumulative;
    private transient RowBuilder builder;

    public WindowAssignFunction(RowType outType, int timeColumn, long size, long slide, long offset, boolean cumulative) {
        this.outType = outType;
        this.timeColumn = timeColumn;
        this.size = size;
        this.slide = slide;
        this.offset = offset;
        this.cumulative = cumulative;
    }

    @Override
    public void flatMap(Row row, Collector<Row> out) {
        if (builder == null) {
            builder = Row.builder(outType);
        }
        long ts = row.getLong(timeColumn);
        if (cumulative) {
            long start = ts - Math.floorMod(ts - offset, size);
            for (long end = ts - Math.floorMod(ts - offset, slide) + slide; end <= start + size; end += slide) {
                emit(row, start, end, out);
            }
            return;
        }
        long lastStart = ts - Math.floorMod(ts - offset, slide);
        for (long start = lastStart; start > ts - size; start -= slide) {
            emit(row, start, start + size, out);
        }
    }

    private void emit(Row row, long start, long end, Collector<Row> out) {
        int n = row.size();
        for (int i = 0; i < n; i++) {
            RowProjector.copy(row, i, builder, i, outType);
        }
        builder.setTimestamp(n, start);
        builder.setTimestamp(n + 1, end);
        builder.setTimestamp(n + 2, end - 1);
        out.collect(builder.build());
    }
}
