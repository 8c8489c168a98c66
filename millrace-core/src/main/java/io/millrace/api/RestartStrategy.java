package io.millrace.api;

import java.time.Duration;
import java.util.Objects;

/**
 * What a job does when a task fails: give up, or restart from the latest complete checkpoint (or from the
 * beginning when there is none) after a delay.
 */
public final class RestartStrategy implements java.io.Serializable {
    private final int maxRestarts;
    private final Duration initialDelay;
    private final Duration maxDelay;
    private final double multiplier;

    private RestartStrategy(int maxRestarts, Duration initialDelay, Duration maxDelay, double multiplier) {
        this.maxRestarts = maxRestarts;
        this.initialDelay = initialDelay;
        this.maxDelay = maxDelay;
        this.multiplier = multiplier;
    }

    /** The first failure fails the job (the default). */
    public static RestartStrategy none() {
        return new RestartStrategy(0, Duration.ZERO, Duration.ZERO, 1);
    }

    /** Up to {@code attempts} restarts, each after {@code delay}. */
    public static RestartStrategy fixedDelay(int attempts, Duration delay) {
        return new RestartStrategy(requireAttempts(attempts), nonNegative("restart delay", delay), delay, 1);
    }

    /**
     * Up to {@code attempts} restarts; the delay starts at {@code initial} and is multiplied by
     * {@code multiplier} after each restart, up to {@code max}.
     */
    public static RestartStrategy exponentialBackoff(int attempts, Duration initial, Duration max, double multiplier) {
        nonNegative("restart initial delay", initial);
        nonNegative("restart max delay", max);
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("restart max delay " + max + " must not be below the initial delay " + initial);
        }
        if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
            throw new IllegalArgumentException("option 'restart multiplier' must be at least 1, was " + multiplier);
        }
        return new RestartStrategy(requireAttempts(attempts), initial, max, multiplier);
    }

    /** How many restarts are allowed in all. */
    public int maxRestarts() {
        return maxRestarts;
    }

    /** The delay before restart number {@code n} (1 for the first). */
    public Duration delayBefore(int n) {
        double millis = initialDelay.toMillis() * Math.pow(multiplier, Math.max(0, n - 1));
        return Duration.ofMillis((long) Math.min(millis, maxDelay.toMillis()));
    }

    private static int requireAttempts(int attempts) {
        if (attempts < 1) {
            throw new IllegalArgumentException("option 'restart attempts' must be at least 1, was " + attempts);
        }
        return attempts;
    }

    private static Duration nonNegative(String option, Duration d) {
        Objects.requireNonNull(d, option);
        if (d.isNegative()) {
            throw new IllegalArgumentException("option '" + option + "' must not be negative, was " + d);
        }
        return d;
    }

    @Override
    public String toString() {
        return maxRestarts == 0 ? "no restarts" : maxRestarts + " restarts, delay " + initialDelay + (multiplier > 1 ? " x" + multiplier + " up to " + maxDelay : "");
    }
}
