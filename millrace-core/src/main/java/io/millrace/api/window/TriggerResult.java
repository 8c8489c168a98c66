package io.millrace.api.window;

/** What a trigger decides for its window: emit the result now, and/or drop the window's contents. */
public enum TriggerResult {
    CONTINUE(false, false),
    FIRE(true, false),
    PURGE(false, true),
    FIRE_AND_PURGE(true, true);

    private final boolean fire;
    private final boolean purge;

    TriggerResult(boolean fire, boolean purge) {
        this.fire = fire;
        this.purge = purge;
    }

    public boolean isFire() {
        return fire;
    }

    public boolean isPurge() {
        return purge;
    }
}
