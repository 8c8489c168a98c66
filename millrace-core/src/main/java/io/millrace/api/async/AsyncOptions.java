package io.millrace.api.async;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * How an asynchronous operator runs its requests: the order of its output, how many requests may be in flight at
 * once, how long a request may take, and what happens when one takes longer or fails. Immutable; each {@code with}
 * method returns a changed copy.
 *
 * <pre>{@code
 * AsyncOptions.ordered().capacity(50).timeout(Duration.ofMillis(200))
 *         .onTimeout(TimeoutPolicy.RETRY).retry(AsyncRetryStrategy.exponentialBackoff(4, Duration.ofMillis(20), Duration.ofSeconds(1)))
 * }</pre>
 *
 * Defaults: ordered, capacity 100, timeout 10 s, {@link TimeoutPolicy#FAIL}, no retry.
 */
public final class AsyncOptions implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The order in which results leave the operator. */
    public enum OutputMode {
        /** In the order of the input records, whatever order the answers come in. */
        ORDERED,
        /**
         * As soon as each answer arrives, but never across a watermark: a watermark leaves only after the results of
         * every record before it, and a record after it never leaves before it. Lower latency when answer times vary.
         */
        UNORDERED
    }

    /** What a request that got no answer within the timeout leads to. */
    public enum TimeoutPolicy {
        /** The job fails, naming the operator, the record and the timeout. */
        FAIL,
        /** The request is issued again as the retry strategy says; when it allows no more attempts, the job fails. */
        RETRY,
        /** The function's {@link AsyncFunction#timeout} gives the result (a default value, or none). */
        FALLBACK
    }

    private final OutputMode mode;
    private final int capacity;
    private final Duration timeout;
    private final TimeoutPolicy timeoutPolicy;
    private final AsyncRetryStrategy<?> retry;

    private AsyncOptions(OutputMode mode, int capacity, Duration timeout, TimeoutPolicy timeoutPolicy, AsyncRetryStrategy<?> retry) {
        this.mode = mode;
        this.capacity = capacity;
        this.timeout = timeout;
        this.timeoutPolicy = timeoutPolicy;
        this.retry = retry;
    }

    /** Results in input order. */
    public static AsyncOptions ordered() {
        return new AsyncOptions(OutputMode.ORDERED, 100, Duration.ofSeconds(10), TimeoutPolicy.FAIL, AsyncRetryStrategy.none());
    }

    /** Results as they arrive, within the bounds of watermarks; see {@link OutputMode#UNORDERED}. */
    public static AsyncOptions unordered() {
        return ordered().mode(OutputMode.UNORDERED);
    }

    public AsyncOptions mode(OutputMode mode) {
        return new AsyncOptions(Objects.requireNonNull(mode, "mode"), capacity, timeout, timeoutPolicy, retry);
    }

    /**
     * At most {@code capacity} records of a subtask wait for their results at once (requests in flight, and answers
     * held back for order); a record that would exceed it waits, and so does the input behind it: backpressure.
     */
    public AsyncOptions capacity(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("async capacity must be at least 1 request in flight, not " + capacity);
        }
        return new AsyncOptions(mode, capacity, timeout, timeoutPolicy, retry);
    }

    /** How long one attempt of a request may take, in processing time (the pipeline's clock), in whole milliseconds. */
    public AsyncOptions timeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("async timeout must be positive, not " + timeout);
        }
        return new AsyncOptions(mode, capacity, timeout, timeoutPolicy, retry);
    }

    public AsyncOptions onTimeout(TimeoutPolicy policy) {
        return new AsyncOptions(mode, capacity, timeout, Objects.requireNonNull(policy, "policy"), retry);
    }

    /**
     * When a request is issued again: after an error or a result the strategy's predicates accept, and after a
     * timeout under {@link TimeoutPolicy#RETRY}.
     */
    public AsyncOptions retry(AsyncRetryStrategy<?> strategy) {
        return new AsyncOptions(mode, capacity, timeout, timeoutPolicy, Objects.requireNonNull(strategy, "strategy"));
    }

    public OutputMode mode() {
        return mode;
    }

    public int capacity() {
        return capacity;
    }

    public Duration timeout() {
        return timeout;
    }

    public TimeoutPolicy timeoutPolicy() {
        return timeoutPolicy;
    }

    public AsyncRetryStrategy<?> retryStrategy() {
        return retry;
    }

    @Override
    public String toString() {
        return mode + ", capacity " + capacity + ", timeout " + timeout.toMillis() + " ms, on timeout " + timeoutPolicy + ", retry " + retry;
    }
}
