package io.millrace.runtime.source;

import io.millrace.api.source.ReaderOutput;
import io.millrace.api.time.WatermarkGenerator;
import io.millrace.api.time.WatermarkOutput;

/** Watermark and idleness of one split; also the reader's output for that split. */
final class SplitWatermarks<T> implements ReaderOutput.SplitOutput<T>, WatermarkOutput {
    private final SourceOperator<T> owner;
    final WatermarkGenerator<T> generator;
    long watermark = Long.MIN_VALUE;
    long lastActivity;
    boolean idle;
    boolean released;
    boolean used;
    private boolean sawRecordSinceCheck;

    SplitWatermarks(SourceOperator<T> owner, WatermarkGenerator<T> generator) {
        this.owner = owner;
        this.generator = generator;
    }

    @Override
    public void collect(T value) {
        collect(value, Long.MIN_VALUE);
    }

    @Override
    public void collect(T value, long timestamp) {
        if (!sawRecordSinceCheck) {
            // activity is stamped once per poll, not per record
            sawRecordSinceCheck = true;
            used = true;
            lastActivity = owner.clock().millis();
            idle = false;
        }
        owner.emitRecord(value, timestamp, this);
    }

    /** Called once per poll by the operator before idleness is judged. */
    void endPoll() {
        sawRecordSinceCheck = false;
    }

    @Override
    public void emitWatermark(long wm) {
        if (wm > watermark) {
            watermark = wm;
        }
    }

    @Override
    public void markIdle() {
        idle = true;
    }

    @Override
    public void markActive() {
        idle = false;
        lastActivity = owner.clock().millis();
    }
}
