package io.millrace.api.time;

/**
 * Generates watermarks for one source split. {@link #onEvent} is called for every record (keep it
 * cheap); {@link #onPeriodicEmit} after every batch the source reads. Not thread-safe: one per split.
 */
public interface WatermarkGenerator<T> {
    void onEvent(T event, long eventTimestamp, WatermarkOutput output);

    void onPeriodicEmit(WatermarkOutput output);
}
