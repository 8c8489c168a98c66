package io.millrace.rocksdb;

import io.millrace.api.state.StateTtlConfig;
import io.millrace.runtime.state.serde.ByteReader;
import io.millrace.runtime.state.serde.ByteWriter;
import io.millrace.runtime.state.serde.StateSerializer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.rocksdb.RocksIterator;

/**
 * The middle layer of one named state: serialization and TTL over a {@link BytesColumn}. A row key is
 * {@code [key group: 2 bytes big-endian][key]} for single-value states, followed by {@code [sub key]}
 * (a namespace or a map key) for multi-row states; every part is a self-delimiting canonical encoding,
 * so the rows of a key, and of a key group, are one contiguous byte range. A row value is
 * {@code [expiry: 8 bytes]} (TTL states only) followed by the serialized value. Accesses are for the
 * backend's current key. Expired rows are never returned: a read deletes them, and an incremental
 * sweep with a persistent cursor deletes those nobody reads. The single-row accesses of value, reducing,
 * aggregating and list state (lists without TTL) go through the backend's {@link StateCache} when it has
 * one (the cached entry holds the value object and its expiry); the sweep works on the stored rows, which
 * never hold a newer value than the cache. Task thread only.
 */
final class StateColumn {
    /** Accesses of a TTL state between two small sweeps, and the rows such a sweep visits. */
    static final int ACCESSES_PER_SWEEP = 256;
    static final int ACCESS_SWEEP_ROWS = 1024;
    /** How many times its row budget a sweep may visit while most rows it meets are expired. */
    static final int MAX_SWEEP_BATCHES = 16;

    final String name;
    final String kind;
    /** Unique among the backend's states; part of the cache's hash. */
    final int id;
    /** Whether a key has many rows (map entries, namespaces) rather than one. */
    final boolean multiRow;
    /** List state: rows in the list format of {@link ListRows}. */
    final boolean list;
    private final RocksDbKeyedStateBackend backend;
    /** The backend's write-back cache for this single-row state, or null when its rows are read and written directly. */
    private final StateCache cache;
    private final BytesColumn bytes;
    private final long ttlMillis;
    private final boolean refreshOnRead;
    private final StateSerializer values;
    private final ByteReader reader = new ByteReader();
    private int accessesSinceSweep;
    /** Where the current sweep pass goes on; null between passes. */
    private byte[] sweepCursor;
    /** No row expires before this (every write lowers it; a completed pass raises it). */
    private long expiryLowerBound = Long.MAX_VALUE;
    private long nextPassAt = Long.MIN_VALUE;
    /** Least expiry among the rows the current pass kept, and among rows written since it started. */
    private long passMinExpiry = Long.MAX_VALUE;
    private long writtenMinExpiry = Long.MAX_VALUE;

    /** {@code cache}: null, or the backend's cache for a single-row state (a list only without TTL). */
    StateColumn(String name, String kind, int id, boolean multiRow, StateTtlConfig ttl, RocksDbKeyedStateBackend backend,
            BytesColumn bytes, StateCache cache) {
        this.name = name;
        this.kind = kind;
        this.id = id;
        this.multiRow = multiRow;
        this.list = kind.equals("list");
        this.backend = backend;
        this.cache = cache;
        this.bytes = bytes;
        this.ttlMillis = ttl.enabled() ? ttl.ttlMillis() : 0;
        this.refreshOnRead = ttl.enabled() && ttl.updateType() == StateTtlConfig.UpdateType.ON_READ_AND_WRITE;
        this.values = StateSerializer.forValues(backend.schema, name, backend.loader, backend.describeState(name));
    }

    BytesColumn bytes() {
        return bytes;
    }

    boolean hasTtl() {
        return ttlMillis != 0;
    }

    // ---- restore

    /** Rows with any expiry were added behind the sweep's back: the next sweep pass may not be skipped. */
    void noteRestoredRows() {
        expiryLowerBound = Long.MIN_VALUE;
        nextPassAt = Long.MIN_VALUE;
    }

    /**
     * A restored row value in this state's format: the checkpointed expiry is dropped when this state has
     * no TTL; a row checkpointed without TTL gets a fresh expiry when this state has one.
     */
    byte[] convertRow(byte[] value, boolean rowHasTtl) {
        if (rowHasTtl == hasTtl()) {
            return value;
        }
        if (rowHasTtl) {
            return Arrays.copyOfRange(value, 8, value.length);
        }
        byte[] converted = new byte[value.length + 8];
        setExpiry(converted, expiryFrom(backend.clock.millis()));
        System.arraycopy(value, 0, converted, 8, value.length);
        return converted;
    }

    /** Takes over the rows restored into this column before the state was created, checkpointed with or without TTL. */
    void adoptRestoredRows(boolean rowsHaveTtl) {
        noteRestoredRows();
        if (rowsHaveTtl == hasTtl()) {
            return;
        }
        try (RocksIterator it = bytes.scan()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                bytes.put(it.key(), convertRow(it.value(), rowsHaveTtl));
            }
            bytes.checkStatus(it);
        }
    }

    /** Fails naming this state when there is no current key. */
    void requireKey() {
        backend.requireKeyBytes(this);
    }

    // ---- single-row states: the current key's one value

    /**
     * The current key's value, or null when absent or expired (an expired row is deleted). With
     * {@code forWrite} the caller writes the value back at once, so a TTL refresh on read is skipped.
     */
    Object get(boolean forWrite) {
        byte[] key = backend.requireKeyBytes(this);
        if (cache == null) {
            return readRow(key, 0, key.length, forWrite);
        }
        StateCache.Entry e = cached(key, true);
        if (e.value == null || ttlMillis == 0) {
            return e.value;
        }
        long now = backend.clock.millis();
        onTtlAccess(now);
        if (e.expiry <= now) {
            e.value = null;
            cache.markDirty(e);
            return null;
        }
        if (refreshOnRead && !forWrite) {
            e.expiry = expiryFrom(now);
            cache.markDirty(e);
        }
        return e.value;
    }

    /** Stores the current key's value; with the cache, only in the cache (a later write-back serializes it). */
    void put(Object value) {
        byte[] key = backend.requireKeyBytes(this);
        if (cache == null) {
            writeRow(key, 0, key.length, value);
            return;
        }
        StateCache.Entry e = cached(key, false);
        if (ttlMillis != 0) {
            long now = backend.clock.millis();
            onTtlAccess(now);
            e.expiry = expiryFrom(now);
        }
        e.value = value;
        cache.markDirty(e);
    }

    void delete() {
        byte[] key = backend.requireKeyBytes(this);
        if (cache == null) {
            bytes.delete(key);
            return;
        }
        StateCache.Entry e = cached(key, false);
        if (e.value == null && (e.dirty || !e.stored)) {
            return; // already absent (a read found no row, or a delete is pending): nothing to write back
        }
        e.value = null;
        cache.markDirty(e);
    }

    /**
     * The cache entry of the current key's row, loaded from RocksDB on a miss when {@code load} (otherwise a
     * new entry with no value, about to be overwritten). An expired stored row loads as a pending delete.
     */
    private StateCache.Entry cached(byte[] key, boolean load) {
        int hash = StateCache.hash(backend.currentKeyHash(), this);
        StateCache.Entry e = cache.find(this, key, key.length, hash);
        if (e != null) {
            e.key = key;
            return e;
        }
        byte[] row = load ? bytes.get(key) : null;
        e = cache.insert(this, key, hash);
        if (row == null) {
            e.stored = !load;
            return e;
        }
        if (ttlMillis == 0) {
            e.value = decodeRow(row, 0);
            return e;
        }
        long expiry = expiry(row);
        if (expiry <= backend.clock.millis()) {
            cache.markDirty(e);
            return e;
        }
        e.expiry = expiry;
        e.value = decodeRow(row, 8);
        return e;
    }


    /**
     * The row value a cache entry writes back: {@code [expiry][value]} as {@link #put} without the cache
     * would write it, or null for a delete (no value, or expired).
     */
    byte[] encodeRow(Object value, long expiry) {
        if (value == null || (ttlMillis != 0 && expiry <= backend.clock.millis())) {
            return null;
        }
        ByteWriter v = backend.valueScratch();
        v.reset();
        if (ttlMillis != 0) {
            v.writeLong(expiry);
        }
        if (value instanceof ListRows.Appends a) {
            ListRows.write(a.elements, v, this);
        } else if (list) {
            ListRows.write((List<?>) value, v, this);
        } else {
            serialize(value, v);
        }
        return v.toByteArray();
    }

    // ---- list states: one row per key in the list format

    /**
     * The current key's list, or null when absent or expired; see {@link #get(boolean)}. With the cache, the
     * cached list itself (appends not read yet are read and added first); otherwise a new list.
     */
    @SuppressWarnings("unchecked")
    ArrayList<Object> getList(boolean forWrite) {
        if (cache == null) {
            return (ArrayList<Object>) get(forWrite);
        }
        byte[] key = backend.requireKeyBytes(this);
        StateCache.Entry e = cached(key, true);
        if (e.value instanceof ListRows.Appends a) {
            byte[] row = bytes.get(key);
            ArrayList<Object> all = row == null ? new ArrayList<>() : ListRows.read(row, 0, reader, this);
            all.addAll(a.elements);
            e.value = all;
        }
        return (ArrayList<Object>) e.value;
    }

    /** Replaces the current key's list by {@code elements} (not empty). */
    void putList(List<?> elements) {
        byte[] key = backend.requireKeyBytes(this);
        if (cache != null) {
            StateCache.Entry e = cached(key, false);
            e.value = new ArrayList<>(elements);
            cache.markDirty(e);
            return;
        }
        ByteWriter v = rowStart();
        ListRows.write(elements, v, this);
        bytes.put(key, 0, key.length, v.buffer(), 0, v.size());
    }

    /**
     * Appends elements to the current key's list, reading nothing unless the list has TTL: through the cache
     * when there is one, else one RocksDB merge of their encodings; with TTL (the row's expiry is renewed) a
     * read and a write of the whole list.
     */
    void appendList(List<?> elements) {
        byte[] key = backend.requireKeyBytes(this);
        if (cache != null) {
            appendCached(key, elements);
            return;
        }
        if (ttlMillis != 0) {
            ArrayList<Object> current = getList(true);
            if (current == null) {
                putList(elements);
            } else {
                current.addAll(elements);
                putList(current);
            }
            return;
        }
        ByteWriter v = backend.valueScratch();
        v.reset();
        ListRows.write(elements, v, this);
        bytes.merge(key, v.buffer(), v.size());
    }

    /**
     * Appends to the cached list; a list not cached gets an entry of {@link ListRows.Appends}, so that appending still
     * reads nothing (the write-back merges them). An entry with no value is a known empty list.
     */
    @SuppressWarnings("unchecked")
    private void appendCached(byte[] key, List<?> elements) {
        int hash = StateCache.hash(backend.currentKeyHash(), this);
        StateCache.Entry e = cache.find(this, key, key.length, hash);
        if (e == null) {
            e = cache.insert(this, key, hash);
            e.value = new ListRows.Appends();
        } else {
            e.key = key;
        }
        if (e.value == null) {
            e.value = new ArrayList<>(elements);
        } else if (e.value instanceof ListRows.Appends a) {
            a.elements.addAll(elements);
        } else {
            ((ArrayList<Object>) e.value).addAll(elements);
        }
        cache.markDirty(e);
    }

    // ---- multi-row states: the current key's rows by sub key

    Object get(Object subKey, boolean forWrite) {
        ByteWriter k = rowKey(subKey);
        return readRow(k.buffer(), 0, k.size(), forWrite);
    }

    void put(Object subKey, Object value) {
        ByteWriter k = rowKey(subKey);
        writeRow(k.buffer(), 0, k.size(), value);
    }

    void delete(Object subKey) {
        ByteWriter k = rowKey(subKey);
        bytes.delete(k.buffer(), 0, k.size());
    }

    /** The stored encoding of a sub key's value, or null; only for states without TTL. */
    byte[] getEncoded(Object subKey) {
        ByteWriter k = rowKey(subKey);
        return bytes.get(k.buffer(), 0, k.size());
    }

    /** Reads one value (or list element) of this state. */
    Object readValue(ByteReader in) {
        return values.read(in);
    }

    /** The value of an encoding from {@link #getEncoded} or {@link #encode}. */
    Object decode(byte[] encoded) {
        return values.read(reader.reset(encoded, 0, encoded.length));
    }

    /** Serialized form of a value as this state stores it, without expiry; for change detection. */
    byte[] encode(Object value) {
        ByteWriter v = backend.valueScratch();
        v.reset();
        serialize(value, v);
        return v.toByteArray();
    }

    /** Writes a sub key's row from an already encoded value (see {@link #encode}). */
    void putEncoded(Object subKey, byte[] encoded) {
        ByteWriter k = rowKey(subKey);
        ByteWriter v = backend.valueScratch();
        v.reset();
        if (ttlMillis != 0) {
            v.writeLong(expiryFrom(backend.clock.millis()));
        }
        v.write(encoded);
        bytes.put(k.buffer(), 0, k.size(), v.buffer(), 0, v.size());
    }

    /**
     * Visits the live rows of the current key as (sub key, value, encoded value), in sub-key byte order;
     * deletes expired rows and refreshes TTL on read where configured. The action must not write this state.
     */
    void forEachRow(RowVisitor action) {
        byte[] prefix = backend.requireKeyBytes(this);
        long now = ttlMillis != 0 ? backend.clock.millis() : 0;
        try (RocksIterator it = bytes.scan()) {
            for (it.seek(prefix); it.isValid(); it.next()) {
                byte[] key = it.key();
                if (!startsWith(key, prefix)) {
                    break;
                }
                byte[] row = it.value();
                int start = 0;
                if (ttlMillis != 0) {
                    if (expiry(row) <= now) {
                        bytes.delete(key);
                        continue;
                    }
                    start = 8;
                    if (refreshOnRead) {
                        refresh(key, row, now);
                    }
                }
                Object subKey = backend.keys.read(reader.reset(key, prefix.length, key.length - prefix.length));
                Object value = values.read(reader.reset(row, start, row.length - start));
                action.visit(subKey, value, start == 0 ? row : Arrays.copyOfRange(row, start, row.length));
            }
            bytes.checkStatus(it);
        }
    }

    /** Whether the current key has at least one live row; deletes the expired rows it passes. */
    boolean anyRow() {
        byte[] prefix = backend.requireKeyBytes(this);
        long now = backend.clock.millis();
        try (RocksIterator it = bytes.scan()) {
            for (it.seek(prefix); it.isValid() && startsWith(it.key(), prefix); it.next()) {
                if (ttlMillis == 0 || expiry(it.value()) > now) {
                    return true;
                }
                bytes.delete(it.key());
            }
            bytes.checkStatus(it);
        }
        return false;
    }

    /** Deletes every row of the current key. */
    void deleteAll() {
        byte[] prefix = backend.requireKeyBytes(this);
        try (RocksIterator it = bytes.scan()) {
            for (it.seek(prefix); it.isValid(); it.next()) {
                byte[] key = it.key();
                if (!startsWith(key, prefix)) {
                    break;
                }
                bytes.delete(key);
            }
            bytes.checkStatus(it);
        }
    }

    /** Receives one row of the current key. */
    interface RowVisitor {
        void visit(Object subKey, Object value, byte[] encoded);
    }

    /** The stored value of a row of the current key (a full row key), or null; only for states without TTL. */
    Object readStored(byte[] rowKey) {
        byte[] row = bytes.get(rowKey);
        return row == null ? null : decode(row);
    }

    /**
     * Visits the stored rows of the current key as (row key, row value), in row key order, without the
     * state cache; for states without TTL. The action must not write this state.
     */
    void forEachStoredRow(BiConsumer<byte[], byte[]> action) {
        byte[] prefix = backend.requireKeyBytes(this);
        try (RocksIterator it = bytes.scan()) {
            for (it.seek(prefix); it.isValid(); it.next()) {
                byte[] key = it.key();
                if (!startsWith(key, prefix)) {
                    break;
                }
                action.accept(key, it.value());
            }
            bytes.checkStatus(it);
        }
    }

    /** Whether RocksDB holds any row of the current key (live or not), without the state cache: one seek. */
    boolean anyStoredRow() {
        byte[] prefix = backend.requireKeyBytes(this);
        try (RocksIterator it = bytes.scan()) {
            it.seek(prefix);
            if (it.isValid()) {
                return startsWith(it.key(), prefix);
            }
            bytes.checkStatus(it);
            return false;
        }
    }

    /** The sub key (namespace or map key) of a row key of the current key. */
    Object subKey(byte[] rowKey) {
        int p = backend.requireKeyBytes(this).length;
        return backend.keys.read(reader.reset(rowKey, p, rowKey.length - p));
    }

    // ---- whole-column operations

    /**
     * Stored entries, live or expired but not yet swept: rows for single-row states, distinct keys for
     * multi-row ones (as the heap backend counts them). Scans the column.
     */
    long entryCount() {
        long n = 0;
        byte[] previous = null;
        int previousLength = 0;
        try (RocksIterator it = bytes.scan()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                if (!multiRow) {
                    n++;
                    continue;
                }
                byte[] key = it.key();
                ByteReader r = reader.reset(key, 2, key.length - 2);
                backend.keys.skip(r);
                int keyLength = r.position();
                if (previous == null || keyLength != previousLength || !Arrays.equals(previous, 0, keyLength, key, 0, keyLength)) {
                    n++;
                    previous = key;
                    previousLength = keyLength;
                }
            }
            bytes.checkStatus(it);
        }
        return n;
    }

    /** Visits the (key, value) rows of one key group; values of multi-row states are (sub key, value) pairs. */
    void forEachInGroup(int keyGroup, BiConsumer<Object, Object> action) {
        byte[] prefix = {(byte) (keyGroup >>> 8), (byte) keyGroup};
        try (RocksIterator it = bytes.scan()) {
            for (it.seek(prefix); it.isValid(); it.next()) {
                byte[] key = it.key();
                if (!startsWith(key, prefix)) {
                    break;
                }
                ByteReader r = reader.reset(key, 2, key.length - 2);
                Object k = backend.keys.read(r);
                Object sub = multiRow ? backend.keys.read(r) : null;
                byte[] row = it.value();
                Object v = decodeRow(row, ttlMillis != 0 ? 8 : 0);
                action.accept(k, multiRow ? Map.entry(sub, v) : v);
            }
            bytes.checkStatus(it);
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

    /** Counts a TTL access; every so many, sweeps a batch (so untouched keys expire without ticks too). */
    private void onTtlAccess(long now) {
        if (++accessesSinceSweep >= ACCESSES_PER_SWEEP) {
            accessesSinceSweep = 0;
            sweep(now, ACCESS_SWEEP_ROWS);
        }
    }

    // ---- rows

    /** The current key's row key of {@code subKey}, in the backend's key scratch buffer (valid until its next use). */
    ByteWriter rowKey(Object subKey) {
        byte[] prefix = backend.requireKeyBytes(this);
        ByteWriter k = backend.keyScratch();
        k.reset();
        k.write(prefix);
        backend.keys.write(subKey, k);
        return k;
    }

    private Object readRow(byte[] key, int offset, int length, boolean forWrite) {
        byte[] row = bytes.get(key, offset, length);
        if (row == null) {
            return null;
        }
        if (ttlMillis == 0) {
            return decodeRow(row, 0);
        }
        long now = backend.clock.millis();
        onTtlAccess(now);
        if (expiry(row) <= now) {
            bytes.delete(key, offset, length);
            return null;
        }
        if (refreshOnRead && !forWrite) {
            row = row.clone();
            setExpiry(row, expiryFrom(now));
            bytes.put(key, offset, length, row, 0, row.length);
        }
        return decodeRow(row, 8);
    }

    /** The value of a row from {@code start} (after the expiry): a list for list states. */
    private Object decodeRow(byte[] row, int start) {
        return list ? ListRows.read(row, start, reader, this) : values.read(reader.reset(row, start, row.length - start));
    }

    private void writeRow(byte[] key, int offset, int length, Object value) {
        ByteWriter v = rowStart();
        serialize(value, v);
        bytes.put(key, offset, length, v.buffer(), 0, v.size());
    }

    /** The value scratch, emptied, with the row's expiry already written when the state has a TTL. */
    private ByteWriter rowStart() {
        ByteWriter v = backend.valueScratch();
        v.reset();
        if (ttlMillis != 0) {
            long now = backend.clock.millis();
            onTtlAccess(now);
            v.writeLong(expiryFrom(now));
        }
        return v;
    }

    /** Writes a value (or list element) of this state; fails naming the state when the serializer refuses it. */
    void serialize(Object value, ByteWriter out) {
        try {
            values.write(value, out);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(kind + " state '" + name + "': " + e.getMessage(), e);
        }
    }

    private void refresh(byte[] key, byte[] row, long now) {
        byte[] copy = row.clone();
        setExpiry(copy, expiryFrom(now));
        bytes.put(key, copy);
    }

    /** The expiry of a row written now; keeps the sweep's lower bound of all expiries valid. */
    private long expiryFrom(long now) {
        long expiry = now + ttlMillis;
        expiryLowerBound = Math.min(expiryLowerBound, expiry);
        writtenMinExpiry = Math.min(writtenMinExpiry, expiry);
        return expiry;
    }

    private static long expiry(byte[] row) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (row[i] & 0xFF);
        }
        return v;
    }

    private static void setExpiry(byte[] row, long expiry) {
        for (int i = 0; i < 8; i++) {
            row[i] = (byte) (expiry >>> (56 - 8 * i));
        }
    }

    static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}
