package io.millrace.runtime.exchange;

/**
 * Records crossing a thread together: parallel arrays of values and event timestamps. Owned by the
 * producer until offered to a channel, then by the consumer until it is recycled back.
 */
public final class RecordBatch {
    final Object[] values;
    final long[] timestamps;
    int size;

    public RecordBatch(int capacity) {
        this.values = new Object[capacity];
        this.timestamps = new long[capacity];
    }

    /** Appends a record; returns true when the batch is now full. */
    boolean add(Object value, long timestamp) {
        values[size] = value;
        timestamps[size] = timestamp;
        return ++size == values.length;
    }

    public int size() {
        return size;
    }

    public Object value(int i) {
        return values[i];
    }

    public long timestamp(int i) {
        return timestamps[i];
    }

    /** Drops references so that recycled batches do not keep records alive. */
    void clear() {
        java.util.Arrays.fill(values, 0, size, null);
        size = 0;
    }
}
