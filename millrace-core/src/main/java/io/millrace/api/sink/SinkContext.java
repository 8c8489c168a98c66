package io.millrace.api.sink;

import io.millrace.api.time.Clock;

/** What a sink writer may know of the subtask running it. */
public interface SinkContext {
    int subtaskIndex();

    int parallelism();

    Clock clock();

    String sinkName();
}
