package io.millrace.rocksdb;

import io.millrace.runtime.state.SortedKeyEncoding;
import io.millrace.runtime.state.serde.ByteReader;
import java.util.Arrays;
import java.util.Map;
import java.util.function.BiConsumer;
import org.rocksdb.RocksIterator;

/**
 * The scans of one state's rows: the rows of the backend's current key (a map's entries, a namespaced
 * state's namespaces), the rows of one key group, and the whole column. Scans of live rows skip and delete
 * expired ones. Each scan opens its own RocksDB iterator. Task thread only.
 */
final class ColumnScan {
    private final StateColumn column;
    private final RocksDbKeyedStateBackend backend;
    private final BytesColumn bytes;
    private final ByteReader reader = new ByteReader();

    ColumnScan(StateColumn column, RocksDbKeyedStateBackend backend, BytesColumn bytes) {
        this.column = column;
        this.backend = backend;
        this.bytes = bytes;
    }

    /**
     * Visits the live rows of the current key as (sub key, value, encoded value), in sub-key byte order;
     * deletes expired rows and refreshes TTL on read where configured. The action must not write this state.
     */
    void forEachRow(RowVisitor action) {
        byte[] prefix = backend.requireKeyBytes(column);
        boolean ttl = column.hasTtl();
        long now = ttl ? backend.clock.millis() : 0;
        try (RocksIterator it = bytes.scan()) {
            for (it.seek(prefix); it.isValid(); it.next()) {
                byte[] key = it.key();
                if (!StateColumn.startsWith(key, prefix)) {
                    break;
                }
                byte[] row = it.value();
                int start = 0;
                if (ttl) {
                    if (ExpirySweep.expiry(row) <= now) {
                        bytes.delete(key);
                        continue;
                    }
                    start = 8;
                    if (column.refreshOnRead) {
                        column.refresh(key, row, now);
                    }
                }
                Object subKey = backend.keys.read(reader.reset(key, prefix.length, key.length - prefix.length));
                Object value = column.readValue(reader.reset(row, start, row.length - start));
                action.visit(subKey, value, start == 0 ? row : Arrays.copyOfRange(row, start, row.length));
            }
            bytes.checkStatus(it);
        }
    }

    /** Whether the current key has at least one live row; deletes the expired rows it passes. */
    boolean anyRow() {
        byte[] prefix = backend.requireKeyBytes(column);
        long now = backend.clock.millis();
        try (RocksIterator it = bytes.scan()) {
            for (it.seek(prefix); it.isValid() && StateColumn.startsWith(it.key(), prefix); it.next()) {
                if (!column.hasTtl() || ExpirySweep.expiry(it.value()) > now) {
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
        byte[] prefix = backend.requireKeyBytes(column);
        try (RocksIterator it = bytes.scan()) {
            for (it.seek(prefix); it.isValid(); it.next()) {
                byte[] key = it.key();
                if (!StateColumn.startsWith(key, prefix)) {
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
        return row == null ? null : column.decode(row);
    }

    /**
     * Visits the stored rows of the current key as (row key, row value), in row key order, without the
     * state cache; for states without TTL. The action must not write this state.
     */
    void forEachStoredRow(BiConsumer<byte[], byte[]> action) {
        byte[] prefix = backend.requireKeyBytes(column);
        try (RocksIterator it = bytes.scan()) {
            for (it.seek(prefix); it.isValid(); it.next()) {
                byte[] key = it.key();
                if (!StateColumn.startsWith(key, prefix)) {
                    break;
                }
                action.accept(key, it.value());
            }
            bytes.checkStatus(it);
        }
    }

    /** Whether RocksDB holds any row of the current key (live or not), without the state cache: one seek. */
    boolean anyStoredRow() {
        byte[] prefix = backend.requireKeyBytes(column);
        try (RocksIterator it = bytes.scan()) {
            it.seek(prefix);
            if (it.isValid()) {
                return StateColumn.startsWith(it.key(), prefix);
            }
            bytes.checkStatus(it);
            return false;
        }
    }

    /** The sub key (namespace or map key) of a row key of the current key. */
    Object subKey(byte[] rowKey) {
        int p = backend.requireKeyBytes(column).length;
        return backend.keys.read(reader.reset(rowKey, p, rowKey.length - p));
    }

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
                if (!column.multiRow) {
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
                if (!StateColumn.startsWith(key, prefix)) {
                    break;
                }
                ByteReader r = reader.reset(key, 2, key.length - 2);
                Object k = backend.keys.read(r);
                Object sub = !column.multiRow ? null
                        : column.sortedKeys ? SortedKeyEncoding.read(key, r.position(), key.length - r.position()) : backend.keys.read(r);
                byte[] row = it.value();
                Object v = column.decodeRow(row, column.hasTtl() ? 8 : 0);
                action.accept(k, column.multiRow ? Map.entry(sub, v) : v);
            }
            bytes.checkStatus(it);
        }
    }
}
