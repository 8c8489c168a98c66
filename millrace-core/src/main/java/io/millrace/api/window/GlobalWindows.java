package io.millrace.api.window;

import io.millrace.api.time.TimeDomain;

/**
 * One window per key that holds everything; it fires only through a trigger set with
 * {@code WindowedStream.trigger} (the default trigger never fires) and is never late.
 */
public final class GlobalWindows extends WindowAssigner<GlobalWindow> {
    static final GlobalWindows INSTANCE = new GlobalWindows();

    private GlobalWindows() {}

    @Override
    public TimeDomain timeDomain() {
        return TimeDomain.EVENT_TIME;
    }

    @Override
    public Trigger<Object, Window> defaultTrigger() {
        return Triggers.never();
    }

    private Object readResolve() {
        return INSTANCE;
    }

    @Override
    public String toString() {
        return "global";
    }
}
