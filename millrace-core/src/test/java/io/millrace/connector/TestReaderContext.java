package io.millrace.connector;

import io.millrace.api.source.SourceReaderContext;
import io.millrace.api.time.Clock;

/** A reader context for reader tests. */
public record TestReaderContext(int subtaskIndex, int parallelism, Clock clock, String sourceName)
        implements SourceReaderContext {

    public static TestReaderContext single(Clock clock) {
        return new TestReaderContext(0, 1, clock, "test-source");
    }
}
