package io.millrace.api.window;

import io.millrace.api.state.ReducingState;
import io.millrace.api.state.ReducingStateDescriptor;

/**
 * Early firings every {@code interval} ms, aligned to multiples of the interval. In event time it also
 * fires at the window's max timestamp (and for late records, like {@link EventTimeTrigger}); in processing
 * time it fires only at interval boundaries while the window exists, as the window's end is an event
 * time only for event-time windows.
 */
final class ContinuousTrigger extends Trigger<Object, Window> {
    private final long interval;
    private final boolean eventTime;
    private final ReducingStateDescriptor<Long> nextFiring = new ReducingStateDescriptor<>("continuous-next", Math::min);

    ContinuousTrigger(long interval, boolean eventTime) {
        this.interval = interval;
        this.eventTime = eventTime;
    }

    @Override
    public TriggerResult onElement(Object element, long timestamp, Window window, Context ctx) {
        if (eventTime) {
            if (window.maxTimestamp() <= ctx.currentWatermark()) {
                return TriggerResult.FIRE;
            }
            ctx.registerEventTimeTimer(window.maxTimestamp());
        }
        ReducingState<Long> next = ctx.getReducingState(nextFiring);
        if (next.get() == null) {
            long base = eventTime ? timestamp : ctx.currentProcessingTime();
            schedule(base - Math.floorMod(base, interval) + interval, window, ctx, next);
        }
        return TriggerResult.CONTINUE;
    }

    private void schedule(long time, Window window, Context ctx, ReducingState<Long> next) {
        if (eventTime && time >= window.maxTimestamp()) {
            return;
        }
        next.add(time);
        if (eventTime) {
            ctx.registerEventTimeTimer(time);
        } else {
            ctx.registerProcessingTimeTimer(time);
        }
    }

    @Override
    public TriggerResult onEventTime(long time, Window window, Context ctx) {
        if (!eventTime) {
            return TriggerResult.CONTINUE;
        }
        if (time == window.maxTimestamp()) {
            return TriggerResult.FIRE;
        }
        return onInterval(time, window, ctx);
    }

    @Override
    public TriggerResult onProcessingTime(long time, Window window, Context ctx) {
        return eventTime ? TriggerResult.CONTINUE : onInterval(time, window, ctx);
    }

    private TriggerResult onInterval(long time, Window window, Context ctx) {
        ReducingState<Long> next = ctx.getReducingState(nextFiring);
        Long due = next.get();
        if (due == null || due != time) {
            return TriggerResult.CONTINUE;
        }
        next.clear();
        schedule(time + interval, window, ctx, next);
        return TriggerResult.FIRE;
    }

    @Override
    public boolean canMerge() {
        return true;
    }

    @Override
    public void onMerge(Window window, OnMergeContext ctx) throws Exception {
        ctx.mergeReducingState(nextFiring);
        Long due = ctx.getReducingState(nextFiring).get();
        if (eventTime) {
            if (window.maxTimestamp() > ctx.currentWatermark()) {
                ctx.registerEventTimeTimer(window.maxTimestamp());
            }
            if (due != null) {
                ctx.registerEventTimeTimer(due);
            }
        } else if (due != null) {
            ctx.registerProcessingTimeTimer(due);
        }
    }

    @Override
    public void clear(Window window, Context ctx) {
        ReducingState<Long> next = ctx.getReducingState(nextFiring);
        Long due = next.get();
        if (eventTime) {
            ctx.deleteEventTimeTimer(window.maxTimestamp());
            if (due != null) {
                ctx.deleteEventTimeTimer(due);
            }
        } else if (due != null) {
            ctx.deleteProcessingTimeTimer(due);
        }
        next.clear();
    }

    @Override
    public String toString() {
        return "ContinuousTrigger(" + interval + " ms, " + (eventTime ? "event time" : "processing time") + ")";
    }
}
