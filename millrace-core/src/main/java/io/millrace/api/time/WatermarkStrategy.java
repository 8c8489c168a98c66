package io.millrace.api.time;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * How a source derives event time and watermarks: a timestamp assigner, a watermark generator created
 * per split, an optional idleness timeout after which a silent split stops holding back the
 * watermark, and an optional alignment group that keeps the source subtasks of a group within a
 * bounded drift of each other's watermarks.
 */
public final class WatermarkStrategy<T> implements java.io.Serializable {
    private final TimestampAssigner<T> assigner;
    private final GeneratorFactory<T> generatorFactory;
    private final Duration idleTimeout;
    private final String alignmentGroup;
    private final Duration maxAllowedDrift;

    /** Creates a watermark generator per split. */
    @FunctionalInterface
    public interface GeneratorFactory<T> extends java.io.Serializable {
        WatermarkGenerator<T> create();
    }

    private WatermarkStrategy(TimestampAssigner<T> assigner, GeneratorFactory<T> factory, Duration idleTimeout,
            String alignmentGroup, Duration maxAllowedDrift) {
        this.assigner = assigner;
        this.generatorFactory = factory;
        this.idleTimeout = idleTimeout;
        this.alignmentGroup = alignmentGroup;
        this.maxAllowedDrift = maxAllowedDrift;
    }

    private static <T> WatermarkStrategy<T> of(GeneratorFactory<T> factory) {
        return new WatermarkStrategy<>(null, factory, null, null, null);
    }

    /** Watermarks trail the highest timestamp seen by {@code maxOutOfOrderness}. */
    public static <T> WatermarkStrategy<T> boundedOutOfOrderness(Duration maxOutOfOrderness) {
        long bound = requireNonNegative(maxOutOfOrderness, "maxOutOfOrderness").toMillis();
        return of(() -> new BoundedOutOfOrdernessWatermarks<>(bound));
    }

    /** Timestamps never decrease: the watermark is the highest timestamp seen minus one. */
    public static <T> WatermarkStrategy<T> monotonous() {
        return of(() -> new BoundedOutOfOrdernessWatermarks<>(0));
    }

    /** A user-written generator, created once per split. */
    public static <T> WatermarkStrategy<T> custom(GeneratorFactory<T> factory) {
        return of(Objects.requireNonNull(factory, "factory"));
    }

    /** No event time: records keep the source's timestamp and no watermark is emitted until the end. */
    public static <T> WatermarkStrategy<T> noWatermarks() {
        return of(NoWatermarks::new);
    }

    public WatermarkStrategy<T> withTimestampAssigner(TimestampAssigner<T> assigner) {
        return new WatermarkStrategy<>(Objects.requireNonNull(assigner, "assigner"), generatorFactory, idleTimeout, alignmentGroup,
                maxAllowedDrift);
    }

    /** A split with no records for this long (processing time) is idle until its next record. */
    public WatermarkStrategy<T> withIdleness(Duration timeout) {
        requireNonNegative(timeout, "idleness");
        if (timeout.isZero()) {
            throw new IllegalArgumentException("idleness must be positive, was " + timeout);
        }
        return new WatermarkStrategy<>(assigner, generatorFactory, timeout, alignmentGroup, maxAllowedDrift);
    }

    /**
     * Aligns the watermarks of every source subtask that uses this strategy with {@code group}: a subtask whose
     * watermark is more than {@code maxAllowedDrift} ahead of the lowest one in the group stops reading until the
     * others catch up. Subtasks that have emitted no watermark yet, idle ones and finished ones are left out of the
     * lowest. Without it, a source subtask that reads faster than its siblings runs ahead in event time, and every
     * window and join downstream keeps the state of that drift, since the slow one holds their watermark back.
     * Sources of one job with the same group name are aligned with each other.
     */
    public WatermarkStrategy<T> withWatermarkAlignment(String group, Duration maxAllowedDrift) {
        Objects.requireNonNull(group, "group");
        if (group.isBlank()) {
            throw new IllegalArgumentException("watermark alignment group must not be blank");
        }
        requireNonNegative(maxAllowedDrift, "maxAllowedDrift");
        return new WatermarkStrategy<>(assigner, generatorFactory, idleTimeout, group, maxAllowedDrift);
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

    /** The watermark alignment group, or null when the source's subtasks are not aligned. */
    public String alignmentGroup() {
        return alignmentGroup;
    }

    /** How far a subtask's watermark may run ahead of the lowest in its alignment group; null when not aligned. */
    public Duration maxAllowedDrift() {
        return maxAllowedDrift;
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
