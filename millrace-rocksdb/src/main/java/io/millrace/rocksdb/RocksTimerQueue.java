package io.millrace.rocksdb;

import java.util.Arrays;
import java.util.TreeSet;
import org.rocksdb.RocksIterator;

/**
 * The timers of one time domain of one timer service, as rows of a RocksDB column family:
 * {@code [domain][timestamp: 8 bytes, sign bit flipped, big-endian][key group][key][namespace]}, so
 * RocksDB's byte order is timestamp order and a (key, namespace, timestamp) is one row (registration is
 * idempotent). A heap-side cache holds the earliest rows: exactly the stored rows below {@code boundary}
 * (all of them when the boundary is null). It is refilled from RocksDB in batches when it runs empty and
 * trimmed back when it grows, so memory stays bounded however many timers there are; a registration
 * below the boundary needs no read. Task thread only.
 */
final class RocksTimerQueue {
    /** Rows loaded per refill; the cache is trimmed back to this when it holds twice as many. */
    static final int CACHE_BATCH = 128;
    private static final byte[] NO_VALUE = new byte[0];

    private final BytesColumn column;
    private final byte domain;
    private final TreeSet<byte[]> cache = new TreeSet<>(Arrays::compareUnsigned);
    private byte[] boundary;
    private int size;

    RocksTimerQueue(BytesColumn column, byte domain) {
        this.column = column;
        this.domain = domain;
    }

    int size() {
        return size;
    }

    /** Stores the timer row unless present; returns whether it was added. */
    boolean add(byte[] row) {
        if (covered(row)) {
            if (!cache.add(row)) {
                return false;
            }
            column.put(row, NO_VALUE);
            size++;
            trim();
            return true;
        }
        if (column.get(row) != null) {
            return false;
        }
        column.put(row, NO_VALUE);
        size++;
        return true;
    }

    /** Removes the timer row if present. */
    void remove(byte[] row) {
        if (covered(row) ? cache.remove(row) : column.get(row) != null) {
            column.delete(row);
            size--;
        }
    }

    /** The earliest timestamp, or Long.MAX_VALUE when there is no timer. */
    long peekTimestamp() {
        byte[] first = first();
        return first == null ? Long.MAX_VALUE : timestamp(first);
    }

    /** Removes and returns the earliest row; there must be one. */
    byte[] poll() {
        byte[] first = first();
        cache.pollFirst();
        column.delete(first);
        size--;
        return first;
    }

    static long timestamp(byte[] row) {
        long v = 0;
        for (int i = 1; i < 9; i++) {
            v = (v << 8) | (row[i] & 0xFF);
        }
        return v ^ Long.MIN_VALUE;
    }

    private boolean covered(byte[] row) {
        return boundary == null || Arrays.compareUnsigned(row, boundary) < 0;
    }

    private byte[] first() {
        if (cache.isEmpty() && boundary != null) {
            refill();
        }
        return cache.isEmpty() ? null : cache.first();
    }

    /** Loads the next batch of rows at or after the boundary into the (empty) cache. */
    private void refill() {
        try (RocksIterator it = column.scan()) {
            it.seek(boundary);
            while (it.isValid() && cache.size() < CACHE_BATCH) {
                byte[] key = it.key();
                if (key[0] != domain) {
                    break;
                }
                cache.add(key);
                it.next();
            }
            column.checkStatus(it);
            boundary = it.isValid() && it.key()[0] == domain ? it.key() : null;
        }
    }

    /** Keeps the cache bounded: drops its latest rows (still stored) and lowers the boundary to them. */
    private void trim() {
        if (cache.size() <= 2 * CACHE_BATCH) {
            return;
        }
        while (cache.size() > CACHE_BATCH) {
            boundary = cache.pollLast();
        }
    }
}
