package io.millrace.api.sink;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Collects records into memory, for tests and embedded use in one JVM. Results of all subtasks end up
 * in one list (in arrival order per subtask); read them with {@link #results()} after the job ended.
 */
public final class CollectSink<T> implements Sink<T> {
    private final transient List<T> results = Collections.synchronizedList(new ArrayList<>());
    private final transient List<Long> timestamps = Collections.synchronizedList(new ArrayList<>());

    /** A copy of what was collected so far. */
    public List<T> results() {
        synchronized (results) {
            return new ArrayList<>(results);
        }
    }

    /** The event timestamps of the collected records, in the same order as {@link #results()}. */
    public List<Long> timestamps() {
        synchronized (results) {
            return new ArrayList<>(timestamps);
        }
    }

    public int size() {
        return results.size();
    }

    @Override
    public SinkWriter<T> createWriter(SinkContext context) {
        return new SinkWriter<>() {
            private final List<T> buffer = new ArrayList<>();
            private final List<Long> stamps = new ArrayList<>();

            @Override
            public void write(T value, long timestamp) {
                buffer.add(value);
                stamps.add(timestamp);
                if (buffer.size() >= 1024) {
                    flush(false);
                }
            }

            @Override
            public void flush(boolean endOfInput) {
                if (buffer.isEmpty()) {
                    return;
                }
                synchronized (results) {
                    results.addAll(buffer);
                    timestamps.addAll(stamps);
                }
                buffer.clear();
                stamps.clear();
            }

            @Override
            public void close() {
                flush(true);
            }
        };
    }
}
