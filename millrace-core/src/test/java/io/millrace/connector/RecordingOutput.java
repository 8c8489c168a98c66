package io.millrace.connector;

import io.millrace.api.source.BadRecord;
import io.millrace.api.source.ReaderOutput;
import java.util.ArrayList;
import java.util.List;

/**
 * A real {@link ReaderOutput} for reader tests: it records every emitted value with its timestamp
 * ({@link Long#MIN_VALUE} when none) and split id ({@code null} for the shared output), the released
 * splits and the reported bad records.
 */
public final class RecordingOutput<T> implements ReaderOutput<T> {
    public final List<T> values = new ArrayList<>();
    public final List<Long> timestamps = new ArrayList<>();
    public final List<String> splitIds = new ArrayList<>();
    public final List<String> released = new ArrayList<>();
    public final List<BadRecord> badRecords = new ArrayList<>();

    @Override
    public void collect(T value) {
        record(value, Long.MIN_VALUE, null);
    }

    @Override
    public void collect(T value, long timestamp) {
        record(value, timestamp, null);
    }

    @Override
    public SplitOutput<T> split(String splitId) {
        return new SplitOutput<>() {
            @Override
            public void collect(T value) {
                record(value, Long.MIN_VALUE, splitId);
            }

            @Override
            public void collect(T value, long timestamp) {
                record(value, timestamp, splitId);
            }
        };
    }

    @Override
    public void releaseSplit(String splitId) {
        released.add(splitId);
    }

    @Override
    public void reportBadRecord(BadRecord bad) {
        badRecords.add(bad);
    }

    private void record(T value, long timestamp, String splitId) {
        values.add(value);
        timestamps.add(timestamp);
        splitIds.add(splitId);
    }

    /** The values emitted for one split, in order. */
    public List<T> valuesOf(String splitId) {
        List<T> out = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            if (splitId.equals(splitIds.get(i))) {
                out.add(values.get(i));
            }
        }
        return out;
    }
}
