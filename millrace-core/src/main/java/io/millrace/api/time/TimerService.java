package io.millrace.api.time;

/**
 * Per-key timers of a keyed function. Registering the same (key, timestamp) twice gives one timer.
 * Event-time timers fire when the watermark passes their timestamp; processing-time timers when the
 * pipeline's clock reaches it.
 */
public interface TimerService {
    long currentProcessingTime();

    long currentWatermark();

    void registerEventTimeTimer(long time);

    void registerProcessingTimeTimer(long time);

    void deleteEventTimeTimer(long time);

    void deleteProcessingTimeTimer(long time);
}
