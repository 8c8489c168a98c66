package io.millrace.api.window;

import io.millrace.api.time.TimeDomain;

/**
 * Says which windows a record belongs to. The runtime knows each kind: {@link TimeWindows} (tumbling and
 * sliding, computed from shared slices), {@link SessionWindows} (merging), {@link GlobalWindows} and
 * {@link CountWindows}. Create them through {@link Windows}, or {@code KeyedStream.countWindow}.
 */
public abstract sealed class WindowAssigner<W extends Window> implements java.io.Serializable
        permits TimeWindows, SessionWindows, GlobalWindows, CountWindows {

    WindowAssigner() {}

    /** The clock that places records into windows and fires the default trigger. */
    public abstract TimeDomain timeDomain();

    /** The trigger used when the user sets none. */
    public abstract Trigger<Object, Window> defaultTrigger();
}
