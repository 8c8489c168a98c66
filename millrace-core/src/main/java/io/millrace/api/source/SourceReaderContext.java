package io.millrace.api.source;

import io.millrace.api.time.Clock;

/** What a reader may know of the subtask running it. */
public interface SourceReaderContext {
    int subtaskIndex();

    int parallelism();

    Clock clock();

    /** Name of the source operator, for error messages. */
    String sourceName();

    /**
     * Wakes the subtask so that it polls the reader soon; safe from any thread (a client library's callback). Used
     * by readers whose {@link SourceReader#nanosUntilAvailable()} returns {@link Long#MAX_VALUE}. Default: nothing.
     */
    default void wakeUp() {}
}
