package io.millrace.rocksdb;

import org.rocksdb.RocksIterator;

/**
 * The expiry bookkeeping of one TTL state's column: the expiry written into each row, a lower bound of all
 * expiries, and an incremental sweep with a persistent cursor that deletes expired rows nobody reads. A row
 * value of a TTL state starts with {@code [expiry: 8 bytes big-endian]}. Task thread only.
 */
final class ExpirySweep {
    /** Accesses of a TTL state between two small sweeps, and the rows such a sweep visits. */
    static final int ACCESSES_PER_SWEEP = 256;
    static final int ACCESS_SWEEP_ROWS = 1024;
    /** How many times its row budget a sweep may visit while most rows it meets are expired. */
    static final int MAX_SWEEP_BATCHES = 16;

    private final BytesColumn bytes;
    /** The state's time to live; 0 without TTL (then nothing is swept). */
    private final long ttlMillis;
    private int accessesSinceSweep;
    /** Where the current sweep pass goes on; null between passes. */
    private byte[] sweepCursor;
    /** No row expires before this (every write lowers it; a completed pass raises it). */
    private long expiryLowerBound = Long.MAX_VALUE;
    private long nextPassAt = Long.MIN_VALUE;
    /** Least expiry among the rows the current pass kept, and among rows written since it started. */
    private long passMinExpiry = Long.MAX_VALUE;
    private long writtenMinExpiry = Long.MAX_VALUE;

    ExpirySweep(BytesColumn bytes, long ttlMillis) {
        this.bytes = bytes;
        this.ttlMillis = ttlMillis;
    }

    /** Rows with any expiry were added behind the sweep's back: the next sweep pass may not be skipped. */
    void noteRestoredRows() {
        expiryLowerBound = Long.MIN_VALUE;
        nextPassAt = Long.MIN_VALUE;
    }

    /** The expiry of a row written now; keeps the sweep's lower bound of all expiries valid. */
    long expiryFrom(long now) {
        long expiry = now + ttlMillis;
        expiryLowerBound = Math.min(expiryLowerBound, expiry);
        writtenMinExpiry = Math.min(writtenMinExpiry, expiry);
        return expiry;
    }

    /** Counts a TTL access; every so many, sweeps a batch (so untouched keys expire without ticks too). */
    void onAccess(long now) {
        if (++accessesSinceSweep >= ACCESSES_PER_SWEEP) {
            accessesSinceSweep = 0;
            sweep(now, ACCESS_SWEEP_ROWS);
        }
    }

    /**
     * Visits about {@code rows} rows from the sweep cursor, deleting expired ones; while most visited rows
     * turn out expired it goes on, up to {@link #MAX_SWEEP_BATCHES} times as many. A pass runs from the
     * first row to the last over several calls. A new pass starts only when a row may have expired (the
     * clock reached the lower bound of all expiries) and at most every quarter TTL, so idle or frequent
     * ticks cost nothing. No-op without TTL.
     */
    void sweep(long now, int rows) {
        if (ttlMillis == 0) {
            return;
        }
        if (sweepCursor == null) {
            if (now < expiryLowerBound || now < nextPassAt) {
                return;
            }
            nextPassAt = now + Math.max(1, ttlMillis / 4);
            passMinExpiry = Long.MAX_VALUE;
            writtenMinExpiry = Long.MAX_VALUE;
        }
        try (RocksIterator it = bytes.scan()) {
            if (sweepCursor == null) {
                it.seekToFirst();
            } else {
                it.seek(sweepCursor);
            }
            for (int batch = 0; batch < MAX_SWEEP_BATCHES; batch++) {
                int deleted = 0;
                int visited = 0;
                for (; visited < rows && it.isValid(); visited++, it.next()) {
                    long expiry = expiry(it.value());
                    if (expiry <= now) {
                        bytes.delete(it.key());
                        deleted++;
                    } else {
                        passMinExpiry = Math.min(passMinExpiry, expiry);
                    }
                }
                if (!it.isValid() || deleted * 2 <= visited) {
                    break;
                }
            }
            if (it.isValid()) {
                sweepCursor = it.key();
            } else {
                bytes.checkStatus(it);
                sweepCursor = null;
                expiryLowerBound = Math.min(passMinExpiry, writtenMinExpiry);
            }
        }
    }

    /** The expiry at the start of a TTL row value. */
    static long expiry(byte[] row) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (row[i] & 0xFF);
        }
        return v;
    }

    static void setExpiry(byte[] row, long expiry) {
        for (int i = 0; i < 8; i++) {
            row[i] = (byte) (expiry >>> (56 - 8 * i));
        }
    }
}
