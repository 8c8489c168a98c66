package io.millrace.operator;

import io.millrace.api.metrics.OperatorMetrics;

/**
 * Counters of one operator subtask. Written only by the task thread with plain stores (no allocation,
 * no atomics on the hot path); read by other threads through {@link #snapshot()}, which may be a few
 * records behind.
 */
public final class OperatorMetricGroup {
    private final String operator;
    private final int subtask;
    public long recordsIn;
    public long recordsOut;
    public long lateRecordsDropped;
    public long lateRecordsDiverted;
    public long badRecords;
    private volatile long watermark = Long.MIN_VALUE;

    public OperatorMetricGroup(String operator, int subtask) {
        this.operator = operator;
        this.subtask = subtask;
    }

    public String operator() {
        return operator;
    }

    public void watermark(long wm) {
        this.watermark = wm;
    }

    public long watermark() {
        return watermark;
    }

    public OperatorMetrics snapshot() {
        return new OperatorMetrics(operator, subtask, recordsIn, recordsOut, watermark, lateRecordsDropped, lateRecordsDiverted, badRecords);
    }
}
