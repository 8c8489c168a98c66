package io.millrace.api.metrics;

/**
 * Counters of one operator subtask. {@code watermark} is Long.MIN_VALUE before the first one;
 * {@code lateRecordsDropped} and {@code lateRecordsDiverted} count records behind the watermark that a window
 * dropped or sent to its late side output; {@code badRecords} counts the input a source subtask could not
 * decode, whatever its {@link io.millrace.api.source.BadRecordPolicy} (skipped or dead-lettered; under
 * {@code FAIL}, the one that failed the job).
 */
public record OperatorMetrics(
        String operator,
        int subtask,
        long recordsIn,
        long recordsOut,
        long watermark,
        long lateRecordsDropped,
        long lateRecordsDiverted,
        long badRecords) {

    /** How far the watermark trails the given processing time, in ms (0 before the first watermark). */
    public long watermarkLagMillis(long nowMillis) {
        return watermark == Long.MIN_VALUE || watermark == Long.MAX_VALUE ? 0 : Math.max(0, nowMillis - watermark);
    }
}
