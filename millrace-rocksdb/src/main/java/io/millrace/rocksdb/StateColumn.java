package io.millrace.rocksdb;

import io.millrace.api.state.StateTtlConfig;
import io.millrace.runtime.state.serde.ByteReader;
import io.millrace.runtime.state.serde.ByteWriter;
import io.millrace.runtime.state.serde.StateSerializer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
    final String name;
    final String kind;
    /** Unique among the backend's states; part of the cache's hash. */
    final int id;
    /** Whether a key has many rows (map entries, namespaces) rather than one. */
    final boolean multiRow;
    /** List state: rows in the list format of {@link ListRows}. */
    final boolean list;
    /** Sorted map state: sub keys in the order-preserving {@link io.millrace.runtime.state.SortedKeyEncoding}. */
    final boolean sortedKeys;
    private final RocksDbKeyedStateBackend backend;
    /** The backend's write-back cache for this single-row state, or null when its rows are read and written directly. */
    private final StateCache cache;
    private final BytesColumn bytes;
    private final long ttlMillis;
    final boolean refreshOnRead;
    private final StateSerializer values;
    private final ByteReader reader = new ByteReader();
    /** Expiries and the sweep of expired rows (a no-op without TTL). */
    final ExpirySweep expiries;
    /** Scans of this state's rows by key, key group or the whole column. */
    final ColumnScan scan;

    /** {@code cache}: null, or the backend's cache for a single-row state (a list only without TTL). */
    StateColumn(String name, String kind, int id, boolean multiRow, StateTtlConfig ttl, RocksDbKeyedStateBackend backend,
            BytesColumn bytes, StateCache cache) {
        this.name = name;
        this.kind = kind;
        this.id = id;
        this.multiRow = multiRow;
        this.list = kind.equals("list");
        this.sortedKeys = kind.equals(io.millrace.runtime.state.LogicalSection.SORTED_MAP);
        this.backend = backend;
        this.cache = cache;
        this.bytes = bytes;
        this.ttlMillis = ttl.enabled() ? ttl.ttlMillis() : 0;
        this.refreshOnRead = ttl.enabled() && ttl.updateType() == StateTtlConfig.UpdateType.ON_READ_AND_WRITE;
        this.values = StateSerializer.forValues(backend.schema, name, backend.loader, backend.describeState(name));
        this.expiries = new ExpirySweep(bytes, ttlMillis);
        this.scan = new ColumnScan(this, backend, bytes);
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
        expiries.noteRestoredRows();
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
        ExpirySweep.setExpiry(converted, expiries.expiryFrom(backend.clock.millis()));
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
        expiries.onAccess(now);
        if (e.expiry <= now) {
            e.value = null;
            cache.markDirty(e);
            return null;
        }
        if (refreshOnRead && !forWrite) {
            e.expiry = expiries.expiryFrom(now);
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
            expiries.onAccess(now);
            e.expiry = expiries.expiryFrom(now);
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
        long expiry = ExpirySweep.expiry(row);
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
            v.writeLong(expiries.expiryFrom(backend.clock.millis()));
        }
        v.write(encoded);
        bytes.put(k.buffer(), 0, k.size(), v.buffer(), 0, v.size());
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

    /** The value of the row {@code key[offset, offset + length)}, or null when absent or expired (an expired row is deleted). */
    Object readRow(byte[] key, int offset, int length, boolean forWrite) {
        byte[] row = bytes.get(key, offset, length);
        if (row == null) {
            return null;
        }
        if (ttlMillis == 0) {
            return decodeRow(row, 0);
        }
        long now = backend.clock.millis();
        expiries.onAccess(now);
        if (ExpirySweep.expiry(row) <= now) {
            bytes.delete(key, offset, length);
            return null;
        }
        if (refreshOnRead && !forWrite) {
            row = row.clone();
            ExpirySweep.setExpiry(row, expiries.expiryFrom(now));
            bytes.put(key, offset, length, row, 0, row.length);
        }
        return decodeRow(row, 8);
    }

    /** The value of a row from {@code start} (after the expiry): a list for list states. */
    Object decodeRow(byte[] row, int start) {
        return list ? ListRows.read(row, start, reader, this) : values.read(reader.reset(row, start, row.length - start));
    }

    /** Writes the row {@code key[offset, offset + length)} with {@code value} (and a fresh expiry with TTL). */
    void writeRow(byte[] key, int offset, int length, Object value) {
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
            expiries.onAccess(now);
            v.writeLong(expiries.expiryFrom(now));
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

    /** Rewrites a TTL row with a renewed expiry. */
    void refresh(byte[] key, byte[] row, long now) {
        byte[] copy = row.clone();
        ExpirySweep.setExpiry(copy, expiries.expiryFrom(now));
        bytes.put(key, copy);
    }

    static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}
