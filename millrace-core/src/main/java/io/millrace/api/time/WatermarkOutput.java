package io.millrace.api.time;

/** Where a {@link WatermarkGenerator} reports progress. Watermarks that do not advance are ignored. */
public interface WatermarkOutput {
    void emitWatermark(long watermark);

    /** This split has no data for now: do not hold back the watermark of others. */
    void markIdle();

    /** Undo {@link #markIdle}; also implied by {@link #emitWatermark}. */
    void markActive();
}
