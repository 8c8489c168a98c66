package io.millrace.runtime.async;

import java.util.List;

/** One input record of an async operator, from its arrival until its results are emitted. Task thread only. */
final class AsyncRequest<IN, OUT> {
    final IN input;
    final long timestamp;
    /** Attempts started so far; the current one is this number (1 for the first). */
    int attempt;
    /** The results, once the request is done; emitted when the output order allows. */
    List<OUT> results;
    boolean done;
    /** Where an unordered queue keeps the request: the stretch between two watermarks it belongs to. */
    Object segment;

    AsyncRequest(IN input, long timestamp) {
        this.input = input;
        this.timestamp = timestamp;
    }
}
