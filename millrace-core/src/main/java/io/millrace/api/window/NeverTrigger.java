package io.millrace.api.window;

/** Never fires; windows using it emit only through a user trigger. */
final class NeverTrigger extends Trigger<Object, Window> {
    static final NeverTrigger INSTANCE = new NeverTrigger();

    private NeverTrigger() {}

    @Override
    public TriggerResult onElement(Object element, long timestamp, Window window, Context ctx) {
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
    public void onMerge(Window window, OnMergeContext ctx) {}

    @Override
    public void clear(Window window, Context ctx) {}

    private Object readResolve() {
        return INSTANCE;
    }
}
