package io.millrace.api.source;

import io.millrace.api.time.Clock;

/** What a reader may know of the subtask running it. */
public interface SourceReaderContext {
    int subtaskIndex();

    int parallelism();

    Clock clock();

    /** Name of the source operator, for error messages. */
    String sourceName();
}
