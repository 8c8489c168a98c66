package io.millrace.runtime.state;

/**
 * Timers of the current key with a namespace (a window, or a single VOID namespace for process
 * functions). A (key, namespace, timestamp) is registered at most once; deleting an absent timer does
 * nothing. Timers registered for a time already passed fire at the next watermark or tick.
 */
public interface InternalTimerService<N> {
    long currentWatermark();

    long currentProcessingTime();

    void registerEventTimeTimer(N namespace, long time);

    void deleteEventTimeTimer(N namespace, long time);

    void registerProcessingTimeTimer(N namespace, long time);

    void deleteProcessingTimeTimer(N namespace, long time);

    /** Number of registered timers of both kinds, for tests and metrics. */
    int size();
}
