package io.millrace.rocksdb;

import io.millrace.api.state.SortedMapState;
import io.millrace.runtime.state.SortedKeyEncoding;
import io.millrace.runtime.state.serde.ByteReader;
import io.millrace.runtime.state.serde.ByteWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.rocksdb.RocksIterator;

/**
 * Sorted map state: one row per (key, map key) like map state, but the map key in the order-preserving
 * {@link SortedKeyEncoding}, so that the rows of one key are in map key order and a range, a first or a last
 * entry is a seek and a scan of RocksDB rows bounded by the encoded keys. Expired rows met on the way are
 * deleted and skipped; each entry has its own TTL.
 */
final class RocksSortedMapState<UK, UV> implements SortedMapState<UK, UV> {
    /** Above the type byte of every encoded key: {@code [prefix][LAST]} follows every row of the prefix's key. */
    private static final byte LAST = (byte) 0xFF;

    private final StateColumn column;
    private final RocksDbKeyedStateBackend backend;
    private final BytesColumn bytes;
    private final Class<?> keyType;
    private final ByteReader reader = new ByteReader();
    private final ByteWriter bound = new ByteWriter(64);

    RocksSortedMapState(StateColumn column, RocksDbKeyedStateBackend backend, Class<?> keyType) {
        this.column = column;
        this.backend = backend;
        this.bytes = column.bytes();
        this.keyType = keyType;
    }

    /** The current key's row key of {@code key}, in the backend's key scratch (valid until its next use). */
    private ByteWriter rowKey(Object key) {
        SortedKeyEncoding.check(key, keyType, column.name);
        byte[] prefix = backend.requireKeyBytes(column);
        ByteWriter k = backend.keyScratch();
        k.reset();
        k.write(prefix);
        SortedKeyEncoding.write(key, k);
        return k;
    }

    @Override
    @SuppressWarnings("unchecked")
    public UV get(UK key) {
        ByteWriter k = rowKey(key);
        return (UV) column.readRow(k.buffer(), 0, k.size(), false);
    }

    @Override
    public void put(UK key, UV value) {
        Objects.requireNonNull(value, () -> "sorted map state '" + column.name + "' does not accept null values");
        ByteWriter k = rowKey(key);
        column.writeRow(k.buffer(), 0, k.size(), value);
    }

    @Override
    public void remove(UK key) {
        ByteWriter k = rowKey(key);
        bytes.delete(k.buffer(), 0, k.size());
    }

    @Override
    public boolean contains(UK key) {
        return get(key) != null;
    }

    @Override
    public Map.Entry<UK, UV> firstEntry() {
        List<Map.Entry<UK, UV>> found = scan(null, null, 1);
        return found.isEmpty() ? null : found.get(0);
    }

    @Override
    public Map.Entry<UK, UV> ceilingEntry(UK key) {
        List<Map.Entry<UK, UV>> found = scan(encodedBound(key), null, 1);
        return found.isEmpty() ? null : found.get(0);
    }

    @Override
    public Map.Entry<UK, UV> lastEntry() {
        byte[] prefix = backend.requireKeyBytes(column);
        byte[] target = Arrays.copyOf(prefix, prefix.length + 1);
        target[prefix.length] = LAST;
        return lastAtOrBefore(prefix, target);
    }

    @Override
    public Map.Entry<UK, UV> floorEntry(UK key) {
        byte[] target = encodedBound(key);
        return lastAtOrBefore(backend.requireKeyBytes(column), target);
    }

    @Override
    public Iterable<Map.Entry<UK, UV>> entries() {
        return scan(null, null, Integer.MAX_VALUE);
    }

    @Override
    public Iterable<Map.Entry<UK, UV>> range(UK fromInclusive, UK toExclusive) {
        byte[] from = fromInclusive == null ? null : encodedBound(fromInclusive);
        byte[] to = toExclusive == null ? null : encodedBound(toExclusive);
        if (from != null && to != null && Arrays.compareUnsigned(from, to) >= 0) {
            return List.of();
        }
        return scan(from, to, Integer.MAX_VALUE);
    }

    @Override
    public boolean isEmpty() {
        return firstEntry() == null;
    }

    @Override
    public void clear() {
        column.scan.deleteAll();
    }

    /** The full row key of a bound, as a new array. */
    private byte[] encodedBound(Object key) {
        SortedKeyEncoding.check(key, keyType, column.name);
        byte[] prefix = backend.requireKeyBytes(column);
        bound.reset();
        bound.write(prefix);
        SortedKeyEncoding.write(key, bound);
        return bound.toByteArray();
    }

    /** Up to {@code limit} live entries of the current key with row keys in {@code [from, to)}, ascending; null: no bound. */
    private List<Map.Entry<UK, UV>> scan(byte[] from, byte[] to, int limit) {
        byte[] prefix = backend.requireKeyBytes(column);
        long now = column.hasTtl() ? backend.clock.millis() : 0;
        List<Map.Entry<UK, UV>> out = new ArrayList<>();
        try (RocksIterator it = bytes.scan()) {
            for (it.seek(from != null ? from : prefix); it.isValid() && out.size() < limit; it.next()) {
                byte[] key = it.key();
                if (!StateColumn.startsWith(key, prefix) || (to != null && Arrays.compareUnsigned(key, to) >= 0)) {
                    break;
                }
                Map.Entry<UK, UV> e = live(prefix, key, it.value(), now);
                if (e != null) {
                    out.add(e);
                }
            }
            bytes.checkStatus(it);
        }
        return out;
    }

    /** The live entry of the current key with the greatest row key at or before {@code target}, or null. */
    private Map.Entry<UK, UV> lastAtOrBefore(byte[] prefix, byte[] target) {
        long now = column.hasTtl() ? backend.clock.millis() : 0;
        try (RocksIterator it = bytes.scan()) {
            for (it.seekForPrev(target); it.isValid(); it.prev()) {
                byte[] key = it.key();
                if (!StateColumn.startsWith(key, prefix)) {
                    break;
                }
                Map.Entry<UK, UV> e = live(prefix, key, it.value(), now);
                if (e != null) {
                    return e;
                }
            }
            bytes.checkStatus(it);
        }
        return null;
    }

    /** A row as a user entry, or null when it expired (then it is deleted); refreshes TTL on read where configured. */
    @SuppressWarnings("unchecked")
    private Map.Entry<UK, UV> live(byte[] prefix, byte[] key, byte[] row, long now) {
        int start = 0;
        if (column.hasTtl()) {
            if (ExpirySweep.expiry(row) <= now) {
                bytes.delete(key);
                return null;
            }
            start = 8;
            if (column.refreshOnRead) {
                column.refresh(key, row, now);
            }
        }
        UK k = (UK) SortedKeyEncoding.read(key, prefix.length, key.length - prefix.length);
        UV v = (UV) column.readValue(reader.reset(row, start, row.length - start));
        return Map.entry(k, v);
    }
}
