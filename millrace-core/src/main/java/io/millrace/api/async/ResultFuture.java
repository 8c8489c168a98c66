package io.millrace.api.async;

import java.util.Collection;
import java.util.List;

/**
 * Where the answer to one request of an {@link AsyncFunction} goes. Thread-safe: complete it from whichever thread
 * has the answer (an HTTP client's callback, an executor); the result re-enters the operator on its task thread.
 *
 * <p>Only the first completion counts. Later calls, and calls after the request timed out, change nothing and
 * return {@code false}, so that a client that may report both an answer and an error is safe.
 */
public interface ResultFuture<OUT> {
    /**
     * Completes the request with the records to emit for its input (none drops the input). The collection is copied;
     * its elements must not be changed afterwards. Returns whether this call completed the request.
     */
    boolean complete(Collection<OUT> results);

    /** Completes the request with one record. Returns whether this call completed the request. */
    default boolean completeWith(OUT result) {
        return complete(List.of(result));
    }

    /**
     * Completes the request with an error: the retry strategy may retry it, otherwise the job fails with the
     * operator's name, the input record and {@code error}. Returns whether this call completed the request.
     */
    boolean completeExceptionally(Throwable error);
}
