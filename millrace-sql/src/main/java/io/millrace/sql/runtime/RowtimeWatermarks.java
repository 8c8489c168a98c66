package io.millrace.sql.runtime;

import io.millrace.api.row.Row;
import io.millrace.api.time.TimestampAssigner;
import io.millrace.api.time.WatermarkGenerator;
import io.millrace.api.time.WatermarkOutput;
import io.millrace.api.time.WatermarkStrategy;

/**
 * Flink SQL's {@code WATERMARK FOR rowtime AS expr}: a record's timestamp is its rowtime column, and the watermark is
 * the greatest value of {@code expr} over the rows seen so far, emitted periodically. A row whose rowtime is null
 * fails the job naming the column: it cannot be placed in event time.
 */
public final class RowtimeWatermarks {
    private RowtimeWatermarks() {}

    /** Timestamps from {@code rowtime} and watermarks from {@code watermark}, both evaluated on the rows the strategy sees. */
    public static WatermarkStrategy<Row> strategy(Expr rowtime, String column, Expr watermark) {
        TimestampAssigner<Row> assigner = (row, ts) -> {
            Object v = rowtime.eval(row);
            if (v == null) {
                throw new IllegalArgumentException("the event-time attribute '" + column + "' is null in " + row
                        + ": a row needs its event time (filter nulls out or compute a default in a computed column)");
            }
            return (Long) v;
        };
        return WatermarkStrategy.<Row>custom(() -> new Generator(watermark)).withTimestampAssigner(assigner);
    }

    private static final class Generator implements WatermarkGenerator<Row> {
        private final Expr watermark;
        private long max = Long.MIN_VALUE;
        private long emitted = Long.MIN_VALUE;

        Generator(Expr watermark) {
            this.watermark = watermark;
        }

        @Override
        public void onEvent(Row event, long eventTimestamp, WatermarkOutput output) {
            Object v = watermark.eval(event);
            if (v != null && (Long) v > max) {
                max = (Long) v;
            }
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {
            if (max > emitted) {
                emitted = max;
                output.emitWatermark(max);
            }
        }
    }
}
