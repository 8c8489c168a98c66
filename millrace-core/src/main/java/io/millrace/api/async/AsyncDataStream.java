package io.millrace.api.async;

import io.millrace.api.DataStream;
import java.time.Duration;

/**
 * Applies an {@link AsyncFunction} to a stream: each record starts a request to an external system (a lookup in a
 * database or a web service) and the task goes on with the next records while the answers are on their way, up to
 * a bound of requests in flight per subtask. The answers' records form the returned stream, with their input's
 * timestamp.
 *
 * <pre>{@code
 * DataStream<Enriched> enriched = AsyncDataStream.orderedWait(readings, new AssetLookup(), Duration.ofMillis(500), 64);
 * }</pre>
 *
 * A {@link io.millrace.api.KeyedStream} may be given too: requests are then spread over the subtasks by key, so
 * that each subtask (and its {@link AsyncLookupCache}) sees the same keys; the result is a plain stream.
 *
 * <p>Records waiting for their answer are part of the operator's checkpoint and are requested again after a
 * recovery, also at another parallelism. See {@link AsyncOptions} for the order of results, timeouts and retries.
 */
public final class AsyncDataStream {
    private AsyncDataStream() {}

    /** Results in input order; at most {@code capacity} requests in flight per subtask; a timeout fails the job. */
    public static <IN, OUT> DataStream<OUT> orderedWait(DataStream<IN> input, AsyncFunction<IN, OUT> function, Duration timeout, int capacity) {
        return apply(input, function, AsyncOptions.ordered().timeout(timeout).capacity(capacity));
    }

    /** Results as they arrive, never across a watermark; at most {@code capacity} in flight; a timeout fails the job. */
    public static <IN, OUT> DataStream<OUT> unorderedWait(DataStream<IN> input, AsyncFunction<IN, OUT> function, Duration timeout, int capacity) {
        return apply(input, function, AsyncOptions.unordered().timeout(timeout).capacity(capacity));
    }

    /** Applies {@code function} as {@code options} say: order, capacity, timeout and its policy, retries. */
    public static <IN, OUT> DataStream<OUT> apply(DataStream<IN> input, AsyncFunction<IN, OUT> function, AsyncOptions options) {
        return input.transform(new AsyncSpec<>(function, options));
    }
}
