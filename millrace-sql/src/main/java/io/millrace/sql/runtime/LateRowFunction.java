package io.millrace.sql.runtime;

import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessFunction;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowBuilder;
import io.millrace.api.row.RowType;
import io.millrace.format.JsonRowFormat;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Turns a row that arrived too late for its window (the window aggregation's late-data side output) into a row of the
 * dead-letter table: per column of that table, the late row as a JSON object, the reason, the row's event time or the
 * watermark at the time (the watermark of the window's subtask when the row arrived: this function runs right after
 * it, on the same subtask).
 */
public final class LateRowFunction extends ProcessFunction<Row, Row> {
    private static final long serialVersionUID = 1L;

    /** Column codes of the dead-letter table, by its column names. */
    public enum Column {
        /** {@code row}: the late row as a JSON object. */
        ROW,
        /** {@code reason}: why it is there. */
        REASON,
        /** {@code event_time}: the late row's event time. */
        EVENT_TIME,
        /** {@code watermark}: the watermark when it arrived. */
        WATERMARK,
        /** {@code operator}: the window aggregation, as the plan shows it. */
        OPERATOR
    }

    private final RowType lateType;
    private final RowType outType;
    private final Column[] layout;
    private final String operator;
    private transient JsonRowFormat json;
    private transient RowBuilder builder;

    public LateRowFunction(RowType lateType, RowType outType, Column[] layout, String operator) {
        this.lateType = lateType;
        this.outType = outType;
        this.layout = layout;
        this.operator = operator;
    }

    @Override
    public void processElement(Row row, Context ctx, Collector<Row> out) {
        if (builder == null) {
            builder = Row.builder(outType);
            json = JsonRowFormat.of(lateType);
        }
        long watermark = ctx.currentWatermark();
        long ts = ctx.timestamp();
        for (int i = 0; i < layout.length; i++) {
            Object v = switch (layout[i]) {
                case ROW -> new String(json.encode(row), StandardCharsets.UTF_8);
                case REASON -> "late: event time " + Instant.ofEpochMilli(ts) + " is at or behind the watermark " + Instant.ofEpochMilli(watermark)
                        + " for every window of the row";
                case EVENT_TIME -> ts;
                case WATERMARK -> watermark;
                case OPERATOR -> operator;
            };
            RowProjector.set(builder, i, v, outType);
        }
        out.collect(builder.build());
    }
}
