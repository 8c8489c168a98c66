package io.millrace.api.sink;

/**
 * A sink: creates one writer per sink subtask; its output is at least once. A sink whose output must appear once
 * implements {@link TwoPhaseCommitSink}, which extends this interface and joins checkpoints.
 */
@FunctionalInterface
public interface Sink<T> extends java.io.Serializable {
    /** Called once per subtask, on that subtask's task thread, when the operator opens. */
    SinkWriter<T> createWriter(SinkContext context) throws Exception;
}
