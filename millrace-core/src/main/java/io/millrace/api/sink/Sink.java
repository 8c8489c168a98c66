package io.millrace.api.sink;

/** Creates a writer per sink subtask. The exactly-once variant joins checkpoints (fault-tolerance issue). */
@FunctionalInterface
public interface Sink<T> extends java.io.Serializable {
    SinkWriter<T> createWriter(SinkContext context) throws Exception;
}
