package io.millrace.api.window;

/** Delegates to another trigger and purges the window's contents whenever it fires. */
final class PurgingTrigger<T, W extends Window> extends Trigger<T, W> {
    private final Trigger<T, W> inner;

    PurgingTrigger(Trigger<T, W> inner) {
        this.inner = inner;
    }

    private static TriggerResult purging(TriggerResult r) {
        return r.isFire() ? TriggerResult.FIRE_AND_PURGE : r;
    }

    @Override
    public TriggerResult onElement(T element, long timestamp, W window, Context ctx) throws Exception {
        return purging(inner.onElement(element, timestamp, window, ctx));
    }

    @Override
    public TriggerResult onEventTime(long time, W window, Context ctx) throws Exception {
        return purging(inner.onEventTime(time, window, ctx));
    }

    @Override
    public TriggerResult onProcessingTime(long time, W window, Context ctx) throws Exception {
        return purging(inner.onProcessingTime(time, window, ctx));
    }

    @Override
    public boolean canMerge() {
        return inner.canMerge();
    }

    @Override
    public void onMerge(W window, OnMergeContext ctx) throws Exception {
        inner.onMerge(window, ctx);
    }

    @Override
    public void clear(W window, Context ctx) throws Exception {
        inner.clear(window, ctx);
    }

    @Override
    public String toString() {
        return "Purging(" + inner + ")";
    }
}
