package io.millrace.api.time;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * How a source derives event time and watermarks: a timestamp assigner, a watermark generator created
 * per split, and an optional idleness timeout after which a silent split stops holding back the
 * watermark.
 */
public final class WatermarkStrategy<T> implements java.io.Serializable {
    private final TimestampAssigner<T> assigner;
    private final GeneratorFactory<T> generatorFactory;
    private final Duration idleTimeout;

    /** Creates a watermark generator per split. */
    @FunctionalInterface
    public interface GeneratorFactory<T> extends java.io.Serializable {
        WatermarkGenerator<T> create();
    }

    private WatermarkStrategy(TimestampAssigner<T> assigner, GeneratorFactory<T> factory, Duration idleTimeout) {
        this.assigner = assigner;
        this.generatorFactory = factory;
        this.idleTimeout = idleTimeout;
    }

    /** Watermarks trail the highest timestamp seen by {@code maxOutOfOrderness}. */
    public static <T> WatermarkStrategy<T> boundedOutOfOrderness(Duration maxOutOfOrderness) {
        long bound = requireNonNegative(maxOutOfOrderness, "maxOutOfOrderness").toMillis();
        return new WatermarkStrategy<>(null, () -> new BoundedOutOfOrdernessWatermarks<>(bound), null);
    }

    /** Timestamps never decrease: the watermark is the highest timestamp seen minus one. */
    public static <T> WatermarkStrategy<T> monotonous() {
        return new WatermarkStrategy<>(null, () -> new BoundedOutOfOrdernessWatermarks<>(0), null);
    }

    /** A user-written generator, created once per split. */
    public static <T> WatermarkStrategy<T> custom(GeneratorFactory<T> factory) {
        return new WatermarkStrategy<>(null, Objects.requireNonNull(factory, "factory"), null);
    }

    /** No event time: records keep the source's timestamp and no watermark is emitted until the end. */
    public static <T> WatermarkStrategy<T> noWatermarks() {
        return new WatermarkStrategy<>(null, NoWatermarks::new, null);
    }

    public WatermarkStrategy<T> withTimestampAssigner(TimestampAssigner<T> assigner) {
        return new WatermarkStrategy<>(Objects.requireNonNull(assigner, "assigner"), generatorFactory, idleTimeout);
    }

    /** A split with no records for this long (processing time) is idle until its next record. */
    public WatermarkStrategy<T> withIdleness(Duration timeout) {
        requireNonNegative(timeout, "idleness");
        if (timeout.isZero()) {
            throw new IllegalArgumentException("idleness must be positive, was " + timeout);
        }
        return new WatermarkStrategy<>(assigner, generatorFactory, timeout);
    }

    /** The assigner, or null when the source's own timestamps are used. */
    public TimestampAssigner<T> timestampAssigner() {
        return assigner;
    }

    public WatermarkGenerator<T> createGenerator() {
        return generatorFactory.create();
    }

    /** The idleness timeout, or null if splits never become idle. */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    private static Duration requireNonNegative(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative()) {
            throw new IllegalArgumentException(what + " must not be negative, was " + d);
        }
        return d;
    }

    private static final class BoundedOutOfOrdernessWatermarks<T> implements WatermarkGenerator<T> {
        private final long bound;
        private long maxTimestamp;

        BoundedOutOfOrdernessWatermarks(long bound) {
            this.bound = bound;
            this.maxTimestamp = Long.MIN_VALUE + bound + 1;
        }

        @Override
        public void onEvent(T event, long eventTimestamp, WatermarkOutput output) {
            if (eventTimestamp > maxTimestamp) {
                maxTimestamp = eventTimestamp;
            }
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {
            output.emitWatermark(maxTimestamp - bound - 1);
        }
    }

    private static final class NoWatermarks<T> implements WatermarkGenerator<T> {
        @Override
        public void onEvent(T event, long eventTimestamp, WatermarkOutput output) {}

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {}
    }
}
