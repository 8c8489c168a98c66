package io.millrace.api.window;

import io.millrace.api.state.ReducingState;
import io.millrace.api.state.ReducingStateDescriptor;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;

/**
 * Decides when a window emits its result. One trigger instance serves all keys and windows of an
 * operator subtask: keep per-window data in the state of the {@link Context}, not in fields. Every method
 * runs on the operator's task thread with the window's key as current key.
 *
 * <p>Timers registered through the context call back {@link #onEventTime} or {@link #onProcessingTime}
 * with the same window. The runtime removes the window's contents and calls {@link #clear} once the window
 * expires (event time: watermark reaches {@code maxTimestamp + allowedLateness}; processing time: the
 * clock reaches {@code maxTimestamp}); {@code clear} must delete the trigger's timers and state.
 */
public abstract class Trigger<T, W extends Window> implements java.io.Serializable {

    /** A record was added to {@code window}; {@code timestamp} is its event time (or arrival time). */
    public abstract TriggerResult onElement(T element, long timestamp, W window, Context ctx) throws Exception;

    /** An event-time timer of this window fired: the watermark reached {@code time}. */
    public abstract TriggerResult onEventTime(long time, W window, Context ctx) throws Exception;

    /** A processing-time timer of this window fired: the pipeline clock reached {@code time}. */
    public abstract TriggerResult onProcessingTime(long time, W window, Context ctx) throws Exception;

    /** Whether this trigger supports merging windows (session windows require it). */
    public boolean canMerge() {
        return false;
    }

    /**
     * Windows merged into {@code window}; the merged windows' states are reachable through
     * {@link OnMergeContext#mergeReducingState}, and their timers were already deleted by {@link #clear}.
     * Re-register the timers {@code window} needs.
     */
    public void onMerge(W window, OnMergeContext ctx) throws Exception {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not support merging windows");
    }

    /** The window is gone: delete its timers and trigger state. */
    public abstract void clear(W window, Context ctx) throws Exception;

    /** The trigger's view of time, timers and per-window state; valid only during the call. */
    public interface Context {
        long currentWatermark();

        long currentProcessingTime();

        void registerEventTimeTimer(long time);

        void deleteEventTimeTimer(long time);

        void registerProcessingTimeTimer(long time);

        void deleteProcessingTimeTimer(long time);

        /** State of the current key and window; the descriptor name identifies it. */
        <S> ValueState<S> getState(ValueStateDescriptor<S> descriptor);

        /** Reducing state of the current key and window; can be merged in {@link #onMerge}. */
        <S> ReducingState<S> getReducingState(ReducingStateDescriptor<S> descriptor);
    }

    /** The context of {@link #onMerge}. */
    public interface OnMergeContext extends Context {
        /** Folds the state of the merged windows into the state of the resulting window. */
        <S> void mergeReducingState(ReducingStateDescriptor<S> descriptor) throws Exception;
    }
}
