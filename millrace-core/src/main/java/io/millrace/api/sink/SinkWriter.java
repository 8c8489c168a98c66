package io.millrace.api.sink;

/**
 * Writes the records of one sink subtask. Called by the subtask's own thread only; a write may block
 * (that is how a slow sink applies backpressure).
 */
public interface SinkWriter<T> extends AutoCloseable {
    void write(T value, long timestamp) throws Exception;

    /** Called when the watermark advances; a writer may use it to roll files. Default: nothing. */
    default void onWatermark(long watermark) throws Exception {}

    /** Make everything written so far durable or visible; {@code endOfInput} on the last call. */
    void flush(boolean endOfInput) throws Exception;

    @Override
    void close() throws Exception;
}
