package io.millrace.sql.runtime;

import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.row.Row;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;

/**
 * The second stage of a cumulative window aggregation: per key, merges the steps of the current period
 * {@code [start, start + size)} in order and emits the cumulative window {@code [start, end)} when the watermark
 * passes {@code end - 1}, for every step end of the period from the key's first step on (a step without rows of the
 * key still emits the windows that contain earlier steps, as a batch computation would). Steps that arrive ahead of
 * the watermark wait in state until their window is due, so each window holds exactly the steps before its end.
 */
public final class CumulateFunction extends KeyedProcessFunction<Object, CumulateSlice, Row> {
    private static final long serialVersionUID = 1L;

    private final WindowAggregateFunction calls;
    private final WindowResultFunction result;
    private final long size;
    private final long step;
    private final long offset;
    private transient MapState<Long, SqlAccumulator> pending;
    private transient ValueState<SqlAccumulator> total;
    private transient ValueState<Long> periodStart;

    public CumulateFunction(AggregateCall[] calls, WindowResultFunction result, long size, long step, long offset) {
        this.calls = new WindowAggregateFunction(calls);
        this.result = result;
        this.size = size;
        this.step = step;
        this.offset = offset;
    }

    @Override
    public void open(RuntimeContext context) {
        pending = context.state().getMapState(new MapStateDescriptor<>("cumulate-pending-steps"));
        total = context.state().getState(new ValueStateDescriptor<>("cumulate-total"));
        periodStart = context.state().getState(new ValueStateDescriptor<>("cumulate-period-start"));
    }

    @Override
    public void processElement(CumulateSlice slice, Context<Object> ctx, Collector<Row> out) {
        SqlAccumulator there = pending.get(slice.end());
        pending.put(slice.end(), there == null ? slice.accumulator() : calls.merge(there, slice.accumulator()));
        ctx.timerService().registerEventTimeTimer(slice.end() - 1);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext<Object> ctx, Collector<Row> out) {
        long end = timestamp + 1;
        long start = end - step - Math.floorMod(end - step - offset, size);
        Long current = periodStart.value();
        SqlAccumulator acc = total.value();
        if (current == null || current != start) {
            acc = null; // a new period: the last one ended with its final window
        }
        SqlAccumulator step0 = pending.get(end);
        if (step0 != null) {
            pending.remove(end);
            acc = acc == null ? step0 : calls.merge(acc, step0);
        }
        if (acc == null) {
            return;
        }
        out.collect(result.row(ctx.currentKey(), start, end, calls.getResult(acc)));
        if (end < start + size) {
            total.update(acc);
            periodStart.update(start);
            ctx.timerService().registerEventTimeTimer(end + step - 1);
        } else {
            total.clear();
            periodStart.clear();
        }
    }
}
