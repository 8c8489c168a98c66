package io.millrace.api.window;

import io.millrace.api.state.ReducingState;
import io.millrace.api.state.ReducingStateDescriptor;

/** Fires each time the window has received {@code count} more records. */
final class CountTrigger extends Trigger<Object, Window> {
    private final long count;
    private final ReducingStateDescriptor<Long> seen = new ReducingStateDescriptor<>("count-trigger", Long::sum);

    CountTrigger(long count) {
        if (count <= 0) {
            throw new IllegalArgumentException("trigger count must be positive, was " + count);
        }
        this.count = count;
    }

    @Override
    public TriggerResult onElement(Object element, long timestamp, Window window, Context ctx) {
        ReducingState<Long> state = ctx.getReducingState(seen);
        state.add(1L);
        if (state.get() >= count) {
            state.clear();
            return TriggerResult.FIRE;
        }
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onEventTime(long time, Window window, Context ctx) {
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onProcessingTime(long time, Window window, Context ctx) {
        return TriggerResult.CONTINUE;
    }

    @Override
    public boolean canMerge() {
        return true;
    }

    @Override
    public void onMerge(Window window, OnMergeContext ctx) throws Exception {
        ctx.mergeReducingState(seen);
    }

    @Override
    public void clear(Window window, Context ctx) {
        ctx.getReducingState(seen).clear();
    }

    @Override
    public String toString() {
        return "CountTrigger(" + count + ")";
    }
}
