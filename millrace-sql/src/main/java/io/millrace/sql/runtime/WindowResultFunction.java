package io.millrace.sql.runtime;

import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowBuilder;
import io.millrace.api.row.RowType;
import io.millrace.api.window.TimeWindow;

/**
 * Builds the output row of a window aggregation when the window closes: per output column, the window's start or
 * end, a grouping key component, or an aggregate result, as {@code layout} says.
 */
public final class WindowResultFunction extends ProcessWindowFunction<Object[], Row, Object, TimeWindow> {
    private static final long serialVersionUID = 1L;

    /** {@link #layout} code of the window's start. */
    public static final int WINDOW_START = -1;
    /** {@link #layout} code of the window's end. */
    public static final int WINDOW_END = -2;
    /** {@link #layout} code of the window's time, its end − 1 ms (the timestamp the result carries). */
    public static final int WINDOW_TIME = -3;

    private final RowType outType;
    private final GroupKey key;
    private final int keys;
    /** Per output column: WINDOW_START, WINDOW_END, WINDOW_TIME, a key component {@code 0..keys-1}, or {@code keys + call}. */
    private final int[] layout;
    private transient RowBuilder builder;

    public WindowResultFunction(RowType outType, GroupKey key, int keys, int[] layout) {
        this.outType = outType;
        this.key = key;
        this.keys = keys;
        this.layout = layout;
    }

    @Override
    public void process(Object k, Context<TimeWindow> ctx, Iterable<Object[]> elements, Collector<Row> out) {
        for (Object[] results : elements) {
            out.collect(row(k, ctx.window().start(), ctx.window().end(), results));
        }
    }

    /** The output row of the window {@code [start, end)} of key {@code k} with the aggregate {@code results}. */
    Row row(Object k, long start, long end, Object[] results) {
        if (builder == null) {
            builder = Row.builder(outType);
        }
        for (int i = 0; i < layout.length; i++) {
            int code = layout[i];
            Object v;
            if (code == WINDOW_START) {
                v = start;
            } else if (code == WINDOW_END) {
                v = end;
            } else if (code == WINDOW_TIME) {
                v = end - 1;
            } else if (code < keys) {
                v = key.component(k, code);
            } else {
                v = results[code - keys];
            }
            RowProjector.set(builder, i, v, outType);
        }
        return builder.build();
    }
}
