package io.millrace.runtime.exchange;

/**
 * Records crossing a thread together: parallel arrays of values and event timestamps. Owned by the
 * producer until offered to a channel, then by the consumer until it is recycled back.
 */
public final class RecordBatch {
    final Object[] values;
    final long[] timestamps;
    /** After a hash exchange: each record's key and key group, computed once by the producer. */
    Object[] keys;
    int[] keyGroups;
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

    /** Appends a record with its key and key group; returns true when the batch is now full. */
    boolean addKeyed(Object value, long timestamp, Object key, int keyGroup) {
        if (keys == null) {
            keys = new Object[values.length];
            keyGroups = new int[values.length];
        }
        keys[size] = key;
        keyGroups[size] = keyGroup;
        return add(value, timestamp);
    }

    /** Whether the records carry their keys (they crossed a hash exchange). */
    public boolean keyed() {
        return keys != null;
    }

    public Object key(int i) {
        return keys[i];
    }

    public int keyGroup(int i) {
        return keyGroups[i];
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
        if (keys != null) {
            java.util.Arrays.fill(keys, 0, size, null);
        }
        size = 0;
    }
}
