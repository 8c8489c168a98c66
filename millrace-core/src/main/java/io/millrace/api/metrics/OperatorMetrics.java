package io.millrace.api.metrics;

/**
 * Counters of one operator subtask. {@code watermark} is Long.MIN_VALUE before the first one;
 * {@code lateRecordsDropped} and {@code lateRecordsDiverted} count the records behind the watermark that a
 * window dropped or sent to its late-data side output; {@code badRecords} the bad records a source
 * reported, whatever its bad-record policy did with them.
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
}
