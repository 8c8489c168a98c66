package io.millrace.runtime.operator;

import io.millrace.api.time.TimestampAssigner;
import io.millrace.api.time.WatermarkGenerator;
import io.millrace.api.time.WatermarkOutput;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.OneInputOperator;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.UserFunctionException;

/**
 * Assigns timestamps and generates watermarks in the middle of a pipeline, one generator per subtask.
 * Upstream watermarks are replaced by its own, except the final +∞ one. The generator's periodic emit
 * runs every {@value #PERIOD} records and on every processing-time tick.
 */
public final class TimestampsOperator<T> extends AbstractStreamOperator<T> implements OneInputOperator<T, T>, WatermarkOutput {
    static final int PERIOD = 256;
    private final WatermarkStrategy<T> strategy;
    private TimestampAssigner<T> assigner;
    private WatermarkGenerator<T> generator;
    private int sinceEmit;
    private long emitted = Long.MIN_VALUE;

    public TimestampsOperator(WatermarkStrategy<T> strategy) {
        this.strategy = strategy;
    }

    @Override
    public void open(OperatorContext context, Output<T> output) throws Exception {
        super.open(context, output);
        assigner = strategy.timestampAssigner();
        generator = strategy.createGenerator();
    }

    @Override
    public void processRecord(T value, long timestamp) {
        long ts;
        try {
            ts = assigner == null ? timestamp : assigner.extractTimestamp(value, timestamp);
        } catch (Exception e) {
            throw UserFunctionException.of(context, value, e);
        }
        generator.onEvent(value, ts, this);
        output.emit(value, ts);
        if (++sinceEmit >= PERIOD) {
            sinceEmit = 0;
            generator.onPeriodicEmit(this);
        }
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        if (watermark == Long.MAX_VALUE) {
            emitWatermark(Long.MAX_VALUE);
        }
    }

    @Override
    public void advanceProcessingTime(long now) {
        generator.onPeriodicEmit(this);
    }

    @Override
    public void emitWatermark(long watermark) {
        if (watermark > emitted) {
            emitted = watermark;
            currentWatermark = watermark;
            metrics.watermark(watermark);
            output.emitWatermark(watermark);
        }
    }

    @Override
    public void markIdle() {}

    @Override
    public void markActive() {}
}
