package io.millrace.api.window;

/** Fires at the window's max timestamp, and immediately for records arriving after that (late firings). */
final class EventTimeTrigger extends Trigger<Object, Window> {
    static final EventTimeTrigger INSTANCE = new EventTimeTrigger();

    private EventTimeTrigger() {}

    @Override
    public TriggerResult onElement(Object element, long timestamp, Window window, Context ctx) {
        if (window.maxTimestamp() <= ctx.currentWatermark()) {
            return TriggerResult.FIRE;
        }
        ctx.registerEventTimeTimer(window.maxTimestamp());
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onEventTime(long time, Window window, Context ctx) {
        return time == window.maxTimestamp() ? TriggerResult.FIRE : TriggerResult.CONTINUE;
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
    public void onMerge(Window window, OnMergeContext ctx) {
        if (window.maxTimestamp() > ctx.currentWatermark()) {
            ctx.registerEventTimeTimer(window.maxTimestamp());
        }
    }

    @Override
    public void clear(Window window, Context ctx) {
        ctx.deleteEventTimeTimer(window.maxTimestamp());
    }

    private Object readResolve() {
        return INSTANCE;
    }

    @Override
    public String toString() {
        return "EventTimeTrigger";
    }
}
