package io.millrace.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The settings of a {@link FactorySimulator}. Immutable; build with {@link #builder()}, whose setters
 * check each value and name the option and its accepted range on error.
 *
 * <table>
 * <tr><th>option</th><th>default</th><th>meaning</th></tr>
 * <tr><td>seed</td><td>42</td><td>same seed and options, same events</td></tr>
 * <tr><td>machines</td><td>10</td><td>number of machines, named M001, M002, ...</td></tr>
 * <tr><td>eventsPerSecond</td><td>1000</td><td>event-time density: slots per simulated second over all machines</td></tr>
 * <tr><td>speedup</td><td>1</td><td>simulated seconds per wall-clock second; infinite = as fast as possible</td></tr>
 * <tr><td>startTime</td><td>2026-01-01T00:00:00Z</td><td>event time of the first slot</td></tr>
 * <tr><td>duration / maxEvents</td><td>none (unbounded)</td><td>bounds: simulated time span, or events emitted</td></tr>
 * <tr><td>maxOutOfOrderness</td><td>2 s</td><td>most events are emitted up to this much after their event time</td></tr>
 * <tr><td>lateFraction</td><td>0.01</td><td>share of events delayed beyond maxOutOfOrderness</td></tr>
 * <tr><td>lateDelay</td><td>10 s</td><td>a late event arrives lateDelay/2 to lateDelay after the out-of-order bound</td></tr>
 * <tr><td>runCycle</td><td>5 min</td><td>length of a machine's stop + run cycle (stopped 10–30 % of it)</td></tr>
 * <tr><td>dropoutProbability</td><td>0.1</td><td>chance per run cycle that the machine goes silent while running</td></tr>
 * <tr><td>dropoutMaxLength</td><td>60 s</td><td>a drop-out lasts half of this to all of it</td></tr>
 * <tr><td>anomalyProbability</td><td>0.3</td><td>chance per run cycle (without drop-out) of an injected anomaly</td></tr>
 * </table>
 */
public final class SimulatorConfig implements java.io.Serializable {
    /** 2026-01-01T00:00:00Z. */
    public static final long DEFAULT_START = 1_767_225_600_000L;

    private final long seed;
    private final int machines;
    private final long eventsPerSecond;
    private final double speedup;
    private final long startTime;
    private final long durationMillis;
    private final long maxEvents;
    private final long maxOutOfOrderness;
    private final double lateFraction;
    private final long lateDelay;
    private final long runCycle;
    private final double dropoutProbability;
    private final long dropoutMaxLength;
    private final double anomalyProbability;

    private SimulatorConfig(Builder b) {
        this.seed = b.seed;
        this.machines = b.machines;
        this.eventsPerSecond = b.eventsPerSecond;
        this.speedup = b.speedup;
        this.startTime = b.startTime;
        this.durationMillis = b.durationMillis;
        this.maxEvents = b.maxEvents;
        this.maxOutOfOrderness = b.maxOutOfOrderness;
        this.lateFraction = b.lateFraction;
        this.lateDelay = b.lateDelay;
        this.runCycle = b.runCycle;
        this.dropoutProbability = b.dropoutProbability;
        this.dropoutMaxLength = b.dropoutMaxLength;
        this.anomalyProbability = b.anomalyProbability;
    }

    public static Builder builder() {
        return new Builder();
    }

    public long seed() {
        return seed;
    }

    public int machines() {
        return machines;
    }

    public long eventsPerSecond() {
        return eventsPerSecond;
    }

    /** Simulated milliseconds per wall-clock millisecond; {@link Double#POSITIVE_INFINITY} for no pacing. */
    public double speedup() {
        return speedup;
    }

    public long startTime() {
        return startTime;
    }

    /** The simulated time span in milliseconds, or -1 if not bounded by time. */
    public long durationMillis() {
        return durationMillis;
    }

    /** The number of events to emit over all splits, or -1 if not bounded by count. */
    public long maxEvents() {
        return maxEvents;
    }

    public boolean isBounded() {
        return durationMillis >= 0 || maxEvents >= 0;
    }

    public Duration maxOutOfOrderness() {
        return Duration.ofMillis(maxOutOfOrderness);
    }

    long maxOutOfOrdernessMillis() {
        return maxOutOfOrderness;
    }

    public double lateFraction() {
        return lateFraction;
    }

    long lateDelayMillis() {
        return lateDelay;
    }

    /** The longest an event is emitted after its event time, in milliseconds. */
    long maxDelayMillis() {
        return maxOutOfOrderness + (lateFraction > 0 ? lateDelay : 0);
    }

    long runCycleMillis() {
        return runCycle;
    }

    double dropoutProbability() {
        return dropoutProbability;
    }

    long dropoutMaxLengthMillis() {
        return dropoutMaxLength;
    }

    double anomalyProbability() {
        return anomalyProbability;
    }

    /** The id of machine {@code index} (0-based): M001, M002, ... */
    public String machineId(int index) {
        String digits = Integer.toString(index + 1);
        int width = Math.max(3, Integer.toString(machines).length());
        return "M" + "0".repeat(Math.max(0, width - digits.length())) + digits;
    }

    /** Options of a {@link SimulatorConfig}. */
    public static final class Builder {
        private long seed = 42;
        private int machines = 10;
        private long eventsPerSecond = 1_000;
        private double speedup = 1.0;
        private long startTime = DEFAULT_START;
        private long durationMillis = -1;
        private long maxEvents = -1;
        private long maxOutOfOrderness = 2_000;
        private double lateFraction = 0.01;
        private long lateDelay = 10_000;
        private long runCycle = 300_000;
        private double dropoutProbability = 0.1;
        private long dropoutMaxLength = 60_000;
        private double anomalyProbability = 0.3;

        private Builder() {}

        public Builder seed(long value) {
            this.seed = value;
            return this;
        }

        /** 1 to 100,000. */
        public Builder machines(int value) {
            this.machines = (int) range("machines", value, 1, 100_000);
            return this;
        }

        /** 1 to 100,000,000 slots per simulated second over all machines. */
        public Builder eventsPerSecond(long value) {
            this.eventsPerSecond = range("eventsPerSecond", value, 1, 100_000_000);
            return this;
        }

        /** Greater than 0; {@link Double#POSITIVE_INFINITY} emits as fast as the pipeline takes events. */
        public Builder speedup(double value) {
            if (!(value > 0)) {
                throw new IllegalArgumentException("option 'speedup' must be greater than 0 (or infinite), was " + value);
            }
            this.speedup = value;
            return this;
        }

        /** No pacing by the clock: for benchmarks and tests. Event times are the same as with pacing. */
        public Builder unlimitedSpeed() {
            return speedup(Double.POSITIVE_INFINITY);
        }

        /** Any instant at or after the epoch. */
        public Builder startTime(Instant value) {
            this.startTime = range("startTime", Objects.requireNonNull(value, "startTime").toEpochMilli(), 0, Long.MAX_VALUE / 4);
            return this;
        }

        /** 1 ms to 3650 days of simulated time; ends the source. */
        public Builder duration(Duration value) {
            this.durationMillis = rangeMillis("duration", millis(value, "duration"), 1, Duration.ofDays(3650).toMillis());
            return this;
        }

        /** 1 to 10^15 events over all splits; ends the source. */
        public Builder maxEvents(long value) {
            this.maxEvents = range("maxEvents", value, 1, 1_000_000_000_000_000L);
            return this;
        }

        /** 0 to 1 hour. */
        public Builder maxOutOfOrderness(Duration value) {
            this.maxOutOfOrderness = rangeMillis("maxOutOfOrderness", millis(value, "maxOutOfOrderness"), 0, 3_600_000);
            return this;
        }

        /** 0 to 1. */
        public Builder lateFraction(double value) {
            this.lateFraction = fraction("lateFraction", value);
            return this;
        }

        /** 2 ms to 1 hour. */
        public Builder lateDelay(Duration value) {
            this.lateDelay = rangeMillis("lateDelay", millis(value, "lateDelay"), 2, 3_600_000);
            return this;
        }

        /** 1 minute to 24 hours. */
        public Builder runCycle(Duration value) {
            this.runCycle = rangeMillis("runCycle", millis(value, "runCycle"), 60_000, 86_400_000);
            return this;
        }

        /** 0 to 1. */
        public Builder dropoutProbability(double value) {
            this.dropoutProbability = fraction("dropoutProbability", value);
            return this;
        }

        /** 2 ms to half the run cycle. */
        public Builder dropoutMaxLength(Duration value) {
            this.dropoutMaxLength = rangeMillis("dropoutMaxLength", millis(value, "dropoutMaxLength"), 2, 43_200_000);
            return this;
        }

        /** 0 to 1. */
        public Builder anomalyProbability(double value) {
            this.anomalyProbability = fraction("anomalyProbability", value);
            return this;
        }

        /** Checks the options that depend on each other. */
        public SimulatorConfig build() {
            if (dropoutMaxLength > runCycle / 2) {
                throw new IllegalArgumentException("option 'dropoutMaxLength' must be between 2 ms and half of runCycle ("
                        + runCycle / 2 + " ms), was " + dropoutMaxLength + " ms");
            }
            // every sensor of every machine must report at least every 5 s, so that anomalies show
            long minRate = (3L * machines * 1000 + 4_999) / 5_000;
            if (eventsPerSecond < minRate) {
                throw new IllegalArgumentException("option 'eventsPerSecond' must be between " + minRate
                        + " (0.6 x machines, so each sensor reports at least every 5 s) and 100000000, was " + eventsPerSecond);
            }
            return new SimulatorConfig(this);
        }

        private static long millis(Duration d, String option) {
            Objects.requireNonNull(d, option);
            if (d.isNegative()) {
                throw new IllegalArgumentException("option '" + option + "' must not be negative, was " + d);
            }
            return d.toMillis();
        }

        private static long range(String option, long value, long min, long max) {
            if (value < min || value > max) {
                throw new IllegalArgumentException(
                        "option '" + option + "' must be between " + min + " and " + max + ", was " + value);
            }
            return value;
        }

        private static long rangeMillis(String option, long value, long min, long max) {
            if (value < min || value > max) {
                throw new IllegalArgumentException(
                        "option '" + option + "' must be between " + min + " ms and " + max + " ms, was " + value + " ms");
            }
            return value;
        }

        private static double fraction(String option, double value) {
            if (!(value >= 0 && value <= 1)) {
                throw new IllegalArgumentException("option '" + option + "' must be between 0 and 1, was " + value);
            }
            return value;
        }
    }
}
