package io.millrace.api.async;

import java.io.Serializable;
import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * When and how often an asynchronous request is issued again. An attempt is retried when it failed with an error
 * the {@linkplain #retryOnException exception predicate} accepts (every error by default), when it completed with a
 * result the {@linkplain #retryOnResult result predicate} accepts (none by default), or when it timed out under
 * {@link AsyncOptions.TimeoutPolicy#RETRY}; and only while fewer than {@link #maxAttempts()} attempts were made. The
 * next attempt starts after {@link #delayBefore(int)}, counted on the pipeline's clock.
 *
 * <p>When the attempts are used up, an error or a timeout fails the job; a result the predicate rejects as retryable
 * is emitted as it is.
 *
 * @param <OUT> the result type, for the result predicate
 */
public final class AsyncRetryStrategy<OUT> implements Serializable {
    private static final long serialVersionUID = 1L;

    /** A predicate that can travel with the job to its subtasks. */
    @FunctionalInterface
    public interface SerializablePredicate<T> extends Predicate<T>, Serializable {}

    private final int maxAttempts;
    private final long initialDelayMillis;
    private final long maxDelayMillis;
    private final double multiplier;
    private final SerializablePredicate<Throwable> onException;
    private final SerializablePredicate<Collection<OUT>> onResult;

    private AsyncRetryStrategy(int maxAttempts, long initialDelayMillis, long maxDelayMillis, double multiplier,
            SerializablePredicate<Throwable> onException, SerializablePredicate<Collection<OUT>> onResult) {
        this.maxAttempts = maxAttempts;
        this.initialDelayMillis = initialDelayMillis;
        this.maxDelayMillis = maxDelayMillis;
        this.multiplier = multiplier;
        this.onException = onException;
        this.onResult = onResult;
    }

    /** One attempt only: nothing is retried. */
    public static <OUT> AsyncRetryStrategy<OUT> none() {
        return new AsyncRetryStrategy<>(1, 0, 0, 1, e -> false, r -> false);
    }

    /** Up to {@code maxAttempts} attempts in all (the first included), {@code delay} apart. */
    public static <OUT> AsyncRetryStrategy<OUT> fixedDelay(int maxAttempts, Duration delay) {
        long d = millis(delay, "delay");
        return new AsyncRetryStrategy<>(attempts(maxAttempts), d, d, 1, e -> true, r -> false);
    }

    /**
     * Up to {@code maxAttempts} attempts in all, the first retry after {@code initialDelay}, each following one after
     * twice the previous delay, but never more than {@code maxDelay}.
     */
    public static <OUT> AsyncRetryStrategy<OUT> exponentialBackoff(int maxAttempts, Duration initialDelay, Duration maxDelay) {
        return exponentialBackoff(maxAttempts, initialDelay, maxDelay, 2.0);
    }

    /** As {@link #exponentialBackoff(int, Duration, Duration)}, each delay {@code multiplier} times the previous one. */
    public static <OUT> AsyncRetryStrategy<OUT> exponentialBackoff(int maxAttempts, Duration initialDelay, Duration maxDelay, double multiplier) {
        long initial = millis(initialDelay, "initial delay");
        long max = millis(maxDelay, "maximum delay");
        if (max < initial) {
            throw new IllegalArgumentException("retry maximum delay " + max + " ms is below the initial delay " + initial + " ms");
        }
        if (!(multiplier >= 1.0)) {
            throw new IllegalArgumentException("retry delay multiplier must be at least 1, not " + multiplier);
        }
        return new AsyncRetryStrategy<>(attempts(maxAttempts), initial, max, multiplier, e -> true, r -> false);
    }

    /** Retries only the errors {@code predicate} accepts (called on the task thread); the others fail the job at once. */
    public AsyncRetryStrategy<OUT> retryOnException(SerializablePredicate<Throwable> predicate) {
        return new AsyncRetryStrategy<>(maxAttempts, initialDelayMillis, maxDelayMillis, multiplier, Objects.requireNonNull(predicate, "predicate"), onResult);
    }

    /** Also retries an attempt whose result {@code predicate} accepts (an empty answer, say); called on the task thread. */
    public AsyncRetryStrategy<OUT> retryOnResult(SerializablePredicate<Collection<OUT>> predicate) {
        return new AsyncRetryStrategy<>(maxAttempts, initialDelayMillis, maxDelayMillis, multiplier, onException, Objects.requireNonNull(predicate, "predicate"));
    }

    /** The most attempts of one request, the first included; 1 means no retry. */
    public int maxAttempts() {
        return maxAttempts;
    }

    /** The wait in milliseconds before attempt {@code attempt} (2 for the first retry). */
    public long delayBefore(int attempt) {
        double d = initialDelayMillis;
        for (int i = 2; i < attempt && d < maxDelayMillis; i++) {
            d *= multiplier;
        }
        return (long) Math.min(d, maxDelayMillis);
    }

    /** Whether an attempt that failed with {@code error} is to be retried, attempts allowing. */
    public boolean retries(Throwable error) {
        return onException.test(error);
    }

    /** Whether an attempt that completed with {@code result} is to be retried, attempts allowing. */
    public boolean retries(Collection<OUT> result) {
        return onResult.test(result);
    }

    private static int attempts(int maxAttempts) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("retry max attempts must be at least 1 (the first attempt), not " + maxAttempts);
        }
        return maxAttempts;
    }

    private static long millis(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative()) {
            throw new IllegalArgumentException("retry " + what + " must not be negative, not " + d);
        }
        return d.toMillis();
    }

    @Override
    public String toString() {
        if (maxAttempts == 1) {
            return "none";
        }
        return maxAttempts + " attempts, delay " + initialDelayMillis + (maxDelayMillis == initialDelayMillis ? "" : ".." + maxDelayMillis) + " ms";
    }
}
