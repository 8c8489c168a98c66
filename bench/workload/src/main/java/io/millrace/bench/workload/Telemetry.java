package io.millrace.bench.workload;

/**
 * Factory telemetry as a pure function of the event index, in three shapes (one per telemetry query). Event time
 * advances by {@code 1 / eventsPerSecond} per event; some records are delayed (out of order) by up to
 * {@link Shape#maxDelayMs}.
 */
public final class Telemetry implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Sensors of {@link Shape#SENSORS}. */
    public static final int SENSORS = 10_000;
    /** Machines of {@link Shape#MACHINES}, in 3 groups that run 40 s of every 60 s, phase-shifted by 20 s. */
    public static final int MACHINES = 999;
    /** Indices per key generation of {@link Shape#SHORT_LIVED_KEYS}, and keys per generation. */
    public static final long GENERATION = 200_000;
    public static final long KEYS_PER_GENERATION = 10_000;

    /** The three telemetry workloads. */
    public enum Shape {
        /** 10,000 sensors reporting in turn; 10 % of readings up to 2 s late. */
        SENSORS(2_000),
        /** Machine events in run cycles: each machine is busy 40 s, idle 20 s; 5 % up to 0.5 s late. */
        MACHINES(500),
        /** Keys that live for one generation (about 20 events each), then never come back. In order. */
        SHORT_LIVED_KEYS(0);

        public final long maxDelayMs;

        Shape(long maxDelayMs) {
            this.maxDelayMs = maxDelayMs;
        }
    }

    private final Shape shape;
    private final long seed;
    private final long baseTime;
    private final Divisor perMillisecond;

    public Telemetry(Shape shape, long seed, long baseTime, long eventsPerSecond) {
        if (eventsPerSecond < 1 || eventsPerSecond > 1_000_000_000L) {
            throw new IllegalArgumentException("eventsPerSecond must be between 1 and 10^9, was " + eventsPerSecond);
        }
        this.shape = shape;
        this.seed = seed;
        this.baseTime = baseTime + shape.maxDelayMs;
        this.perMillisecond = new Divisor(eventsPerSecond);
    }

    public Shape shape() {
        return shape;
    }

    /** Time of event {@code i} before any delay; non-decreasing. */
    public long nominalTime(long i) {
        return baseTime + perMillisecond.divide(i * 1000);
    }

    /** Event time of record {@code i} whose {@link #nominalTime} is {@code nominal}: minus a delay for the late ones. */
    private long timestamp(long i, long nominal) {
        if (shape.maxDelayMs == 0) {
            return nominal;
        }
        long r = Hash64.of(seed, i, 7);
        long lateOneIn = shape == Shape.SENSORS ? 10 : 20;
        if (Hash64.below(r, lateOneIn) != 0) {
            return nominal;
        }
        return nominal - Hash64.below(r >>> 8, shape.maxDelayMs + 1);
    }

    public Reading reading(long i) {
        return reading(i, nominalTime(i));
    }

    /** Record {@code i}, whose {@link #nominalTime} the caller has computed already. */
    Reading reading(long i, long nominal) {
        long r = Hash64.of(seed, i, 8);
        double value = 20.0 + (r & 0xffff) / 655.36;
        return new Reading(key(i, nominal, r >>> 16), value, timestamp(i, nominal));
    }

    private long key(long i, long nominal, long random) {
        switch (shape) {
            case SENSORS:
                return i % SENSORS;
            case MACHINES: {
                long second = (nominal - baseTime) / 1000;
                int idle = idleGroup(second);
                int group = (idle + 1 + (int) (random & 1)) % 3;
                return group + 3 * Hash64.below(random >>> 1, MACHINES / 3);
            }
            default:
                return i / GENERATION * KEYS_PER_GENERATION + Hash64.below(random, KEYS_PER_GENERATION);
        }
    }

    /** The machine group that is idle in second {@code s}: group g runs while (s + 20 g) mod 60 is below 40. */
    static int idleGroup(long s) {
        for (int g = 0; g < 3; g++) {
            if ((s + 20L * g) % 60 >= 40) {
                return g;
            }
        }
        throw new AssertionError("one group is always idle");
    }
}
