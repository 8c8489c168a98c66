package io.millrace.runtime.window;

import io.millrace.api.window.Trigger;
import io.millrace.api.window.TriggerResult;
import io.millrace.api.window.Window;
import io.millrace.api.window.WindowSpec;
import io.millrace.runtime.state.InternalTimerService;
import io.millrace.runtime.state.NamespacedState;
import io.millrace.runtime.state.Triggerable;
import java.util.ArrayList;
import java.util.List;

/**
 * Base of the window operators driven by a {@link Trigger}: runs the trigger for a window, fires and purges
 * as it decides, counts firings per window, and removes a window (trigger state, contents, timers) at its
 * cleanup time. Timers are namespaced by window: the trigger's own timers and one cleanup timer per window
 * (deduplicated with the trigger's when they coincide). Subclasses say where a window's contents live.
 */
abstract class TriggeredWindowOperator extends WindowOperatorBase implements Triggerable<Window> {
    protected final Trigger<Object, Window> trigger;
    private final List<Object> windowContents = new ArrayList<>();
    protected WindowTriggerContext triggerContext;
    protected InternalTimerService<Window> timers;
    /** Firings so far per window; absent before the first. */
    protected NamespacedState<Window, Integer> firings;

    TriggeredWindowOperator(WindowSpec spec) {
        super(spec);
        this.trigger = spec.effectiveTrigger();
    }

    @Override
    void openState() {
        timers = backend.timerService("window-timers", this);
        firings = backend.namespacedState("window-firings");
        triggerContext = new WindowTriggerContext(this, backend, timers);
        openContents();
    }

    abstract void openContents();

    /** Adds the window's accumulators, oldest first, to {@code out}. */
    abstract void collectContents(Window window, List<Object> out);

    /** Drops the window's contents (the trigger purged it). */
    abstract void purgeContents(Window window);

    /** Removes the window's contents and bookkeeping at its cleanup time; its trigger is already cleared. */
    abstract void removeWindow(Window window);

    /** Whether the window still exists; timers of windows merged away are ignored. */
    boolean exists(Window window) {
        return true;
    }

    /** Runs the trigger for a record added to {@code window} and registers the window's cleanup. */
    protected final void onElement(Object value, long time, Window window) throws Exception {
        triggerContext.window = window;
        apply(trigger.onElement(value, time, window, triggerContext), window);
        registerCleanupTimer(window);
    }

    @Override
    public void onEventTime(long time, Window window) throws Exception {
        if (!exists(window)) {
            return;
        }
        triggerContext.window = window;
        apply(trigger.onEventTime(time, window, triggerContext), window);
        if (eventTime && time == cleanupTime(window.maxTimestamp())) {
            clearWindow(window);
        }
    }

    @Override
    public void onProcessingTime(long time, Window window) throws Exception {
        if (!exists(window)) {
            return;
        }
        triggerContext.window = window;
        apply(trigger.onProcessingTime(time, window, triggerContext), window);
        if (!eventTime && time == cleanupTime(window.maxTimestamp())) {
            clearWindow(window);
        }
    }

    private void apply(TriggerResult result, Window window) throws Exception {
        if (result.isFire()) {
            fire(window);
        }
        if (result.isPurge()) {
            purgeContents(window);
        }
    }

    private void fire(Window window) throws Exception {
        windowContents.clear();
        collectContents(window, windowContents);
        if (windowContents.isEmpty()) {
            return;
        }
        Integer before = firings.get(window);
        int firing = before == null ? 0 : before;
        firings.put(window, firing + 1);
        emission.start(backend.currentKey(), window, firing, currentWatermark);
        contents.emit(windowContents, emission);
        windowContents.clear();
    }

    protected final void clearWindow(Window window) throws Exception {
        triggerContext.window = window;
        trigger.clear(window, triggerContext);
        firings.remove(window);
        removeWindow(window);
    }

    protected final void registerCleanupTimer(Window window) {
        if (window.maxTimestamp() == Long.MAX_VALUE) {
            return;
        }
        long at = cleanupTime(window.maxTimestamp());
        if (eventTime) {
            timers.registerEventTimeTimer(window, at);
        } else {
            timers.registerProcessingTimeTimer(window, at);
        }
    }

    protected final void deleteCleanupTimer(Window window) {
        long at = cleanupTime(window.maxTimestamp());
        if (eventTime) {
            timers.deleteEventTimeTimer(window, at);
        } else {
            timers.deleteProcessingTimeTimer(window, at);
        }
    }
}
