package io.millrace.rocksdb;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.rocksdb.RocksIterator;

/**
 * The timers of one time domain of one timer service, as rows of a RocksDB column family:
 * {@code [domain][timestamp: 8 bytes, sign bit flipped, big-endian][key group][key][namespace]}, so
 * RocksDB's byte order is timestamp order and a (key, namespace, timestamp) is one row (registration is
 * idempotent). A heap-side cache holds the earliest timers: exactly the timers below {@code boundary} (all
 * of them when the boundary is null), each stored in RocksDB or not yet. It is refilled from RocksDB in
 * batches when it runs empty and trimmed back when it grows, so memory stays bounded however many timers
 * there are ({@link RocksDbConfig#timerCacheEntries} at most). A registration below the boundary is
 * write-back: it touches RocksDB only when trimmed out of the cache or {@linkplain #flush flushed} before a
 * snapshot, so a timer that fires or is deleted before that costs no RocksDB call at all. Every stored row
 * is mirrored in an index column as {@code [key group][row]}, so that a snapshot reads the timers of one key
 * group as one contiguous range. Task thread only.
 */
final class RocksTimerQueue {
    private static final Boolean STORED = Boolean.TRUE;
    private static final Boolean UNSTORED = Boolean.FALSE;
    private static final byte[] NO_VALUE = new byte[0];

    private final BytesColumn column;
    private final BytesColumn byGroup;
    private final byte domain;
    /** Rows loaded per refill; the cache is trimmed back to this when it holds twice as many. */
    private final int batch;
    /** The timers below the boundary, each with whether RocksDB holds its row. */
    private final TreeMap<byte[], Boolean> cache = new TreeMap<>(Arrays::compareUnsigned);
    private byte[] boundary;
    private int size;

    /**
     * A queue over the rows of {@code domain} already stored (restored from a checkpoint) or none, holding at most
     * {@code cacheEntries} (2 or more) on the heap.
     */
    RocksTimerQueue(BytesColumn column, BytesColumn byGroup, byte domain, int cacheEntries) {
        this.column = column;
        this.byGroup = byGroup;
        this.domain = domain;
        this.batch = cacheEntries / 2;
        try (RocksIterator it = column.scan()) {
            for (it.seek(new byte[] {domain}); it.isValid() && it.key()[0] == domain; it.next()) {
                size++;
            }
            column.checkStatus(it);
        }
        if (size > 0) {
            boundary = new byte[] {domain};
        }
    }

    /** The index row of a timer row: its key group (bytes 9 and 10 of the row) in front. */
    static byte[] indexRow(byte[] row) {
        byte[] index = new byte[row.length + 2];
        index[0] = row[9];
        index[1] = row[10];
        System.arraycopy(row, 0, index, 2, row.length);
        return index;
    }

    private void store(byte[] row) {
        column.put(row, NO_VALUE);
        byGroup.put(indexRow(row), NO_VALUE);
    }

    private void unstore(byte[] row) {
        column.delete(row);
        byGroup.delete(indexRow(row));
    }

    int size() {
        return size;
    }

    /** Adds the timer unless present (below the boundary only to the cache); returns whether it was added. */
    boolean add(byte[] row) {
        if (covered(row)) {
            if (cache.putIfAbsent(row, UNSTORED) != null) {
                return false;
            }
            size++;
            trim();
            return true;
        }
        if (column.get(row) != null) {
            return false;
        }
        store(row);
        size++;
        return true;
    }

    /** Removes the timer if present. */
    void remove(byte[] row) {
        if (covered(row)) {
            Boolean stored = cache.remove(row);
            if (stored == null) {
                return;
            }
            if (stored) {
                unstore(row);
            }
            size--;
        } else if (column.get(row) != null) {
            unstore(row);
            size--;
        }
    }

    /** Stores every cached timer RocksDB does not hold yet (before a snapshot reads the columns). */
    void flush() {
        for (Map.Entry<byte[], Boolean> e : cache.entrySet()) {
            if (!e.getValue()) {
                store(e.getKey());
                e.setValue(STORED);
            }
        }
    }

    /** The earliest timestamp, or Long.MAX_VALUE when there is no timer. */
    long peekTimestamp() {
        byte[] first = first();
        return first == null ? Long.MAX_VALUE : timestamp(first);
    }

    /** Removes and returns the earliest row; there must be one. */
    byte[] poll() {
        first();
        Map.Entry<byte[], Boolean> e = cache.pollFirstEntry();
        if (e.getValue()) {
            unstore(e.getKey());
        }
        size--;
        return e.getKey();
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
        return cache.isEmpty() ? null : cache.firstKey();
    }

    /** Loads the next batch of rows at or after the boundary into the (empty) cache. */
    private void refill() {
        try (RocksIterator it = column.scan()) {
            it.seek(boundary);
            while (it.isValid() && cache.size() < batch) {
                byte[] key = it.key();
                if (key[0] != domain) {
                    break;
                }
                cache.put(key, STORED);
                it.next();
            }
            column.checkStatus(it);
            boundary = it.isValid() && it.key()[0] == domain ? it.key() : null;
        }
    }

    /** Keeps the cache bounded: drops its latest timers (storing those RocksDB lacks) and lowers the boundary to them. */
    private void trim() {
        if (cache.size() <= 2 * batch) {
            return;
        }
        while (cache.size() > batch) {
            Map.Entry<byte[], Boolean> last = cache.pollLastEntry();
            if (!last.getValue()) {
                store(last.getKey());
            }
            boundary = last.getKey();
        }
    }
}
