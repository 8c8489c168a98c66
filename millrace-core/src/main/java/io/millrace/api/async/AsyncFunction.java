package io.millrace.api.async;

import java.io.Serializable;

/**
 * Asks an external system about each record without blocking the task: {@link #asyncInvoke} starts a request and
 * returns at once; the request's answer completes the {@link ResultFuture}, from any thread. The records it
 * completes with replace the input record in the output, with the input's timestamp (an empty collection drops the
 * record). Applied with {@link AsyncDataStream}.
 *
 * <p>Both methods are called on the operator's task thread, one call at a time; a function that also implements
 * {@link io.millrace.api.functions.RichFunction} is opened before the first request and closed after the last one
 * (create clients and executors in {@code open}, not in the constructor: the function is serialized to each
 * subtask). A request may be issued again for the same record: after a retry (see {@link AsyncRetryStrategy}) and
 * after recovery from a checkpoint, for the records whose results were not yet emitted, so a request should be
 * safe to repeat (a lookup is).
 */
@FunctionalInterface
public interface AsyncFunction<IN, OUT> extends Serializable {
    /**
     * Starts the request for {@code input} and completes {@code result} when the answer arrives. An exception thrown
     * here counts as {@link ResultFuture#completeExceptionally}: the retry strategy may retry it, otherwise it fails
     * the job with the operator's name and the record.
     */
    void asyncInvoke(IN input, ResultFuture<OUT> result) throws Exception;

    /**
     * Called on the task thread when a request of {@code input} got no answer in time and the options' timeout policy
     * is {@link AsyncOptions.TimeoutPolicy#FALLBACK}: complete {@code result} with the records to emit instead (a
     * default value), or exceptionally to fail the job. The default completes with no record: the input is dropped.
     * A late answer to the timed-out request is ignored.
     */
    default void timeout(IN input, ResultFuture<OUT> result) throws Exception {
        result.complete(java.util.List.of());
    }
}
