package io.millrace.connector.jdbc;

import io.millrace.api.sink.SinkContext;
import io.millrace.api.time.Clock;

/** A sink subtask as the runtime would describe it, for tests that drive a writer and committer by hand. */
record TestSinkContext(int subtaskIndex, int parallelism, Clock clock, String sinkName) implements SinkContext {
    static TestSinkContext of(int subtask, Clock clock) {
        return new TestSinkContext(subtask, 2, clock, "test-sink");
    }
}
