package io.millrace.api.window;

/** Fires when the pipeline clock reaches the window's max timestamp. */
final class ProcessingTimeTrigger extends Trigger<Object, Window> {
    static final ProcessingTimeTrigger INSTANCE = new ProcessingTimeTrigger();

    private ProcessingTimeTrigger() {}

    @Override
    public TriggerResult onElement(Object element, long timestamp, Window window, Context ctx) {
        ctx.registerProcessingTimeTimer(window.maxTimestamp());
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onEventTime(long time, Window window, Context ctx) {
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onProcessingTime(long time, Window window, Context ctx) {
        return time == window.maxTimestamp() ? TriggerResult.FIRE : TriggerResult.CONTINUE;
    }

    @Override
    public boolean canMerge() {
        return true;
    }

    @Override
    public void onMerge(Window window, OnMergeContext ctx) {
        ctx.registerProcessingTimeTimer(window.maxTimestamp());
    }

    @Override
    public void clear(Window window, Context ctx) {
        ctx.deleteProcessingTimeTimer(window.maxTimestamp());
    }

    private Object readResolve() {
        return INSTANCE;
    }

    @Override
    public String toString() {
        return "ProcessingTimeTrigger";
    }
}
