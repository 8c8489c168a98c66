package io.millrace.rocksdb;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * The bottom layer: one RocksDB column family as a sorted map from bytes to bytes. Knows nothing of
 * keys, namespaces or types; failures become {@link StateStorageException}s naming the column. Task
 * thread only.
 */
final class BytesColumn {
    private final String name;
    private final RocksDbStore store;
    private final ColumnFamilyHandle handle;

    BytesColumn(String name, RocksDbStore store, ColumnFamilyHandle handle) {
        this.name = name;
        this.store = store;
        this.handle = handle;
    }

    String name() {
        return name;
    }

    ColumnFamilyHandle handle() {
        return handle;
    }

    /** The value of {@code key[offset, offset + length)}, or null. */
    byte[] get(byte[] key, int offset, int length) {
        try {
            return db().get(handle, store.reads, key, offset, length);
        } catch (RocksDBException e) {
            throw failure("read", e);
        }
    }

    byte[] get(byte[] key) {
        return get(key, 0, key.length);
    }

    void put(byte[] key, int keyOffset, int keyLength, byte[] value, int valueOffset, int valueLength) {
        try {
            db().put(handle, store.writes, key, keyOffset, keyLength, value, valueOffset, valueLength);
        } catch (RocksDBException e) {
            throw failure("write", e);
        }
    }

    void put(byte[] key, byte[] value) {
        put(key, 0, key.length, value, 0, value.length);
    }

    /** Appends {@code value[0, length)} to the key's value (the column family's merge operator concatenates). */
    void merge(byte[] key, byte[] value, int length) {
        try {
            db().merge(handle, store.writes, key, 0, key.length, value, 0, length);
        } catch (RocksDBException e) {
            throw failure("merge into", e);
        }
    }

    void delete(byte[] key, int offset, int length) {
        try {
            db().delete(handle, store.writes, key, offset, length);
        } catch (RocksDBException e) {
            throw failure("delete", e);
        }
    }

    void delete(byte[] key) {
        delete(key, 0, key.length);
    }

    /** A new iterator over a consistent view of the column; the caller closes it. Bypasses the block cache. */
    RocksIterator scan() {
        return db().newIterator(handle, store.scans);
    }

    /** Turns an iterator's stored error, if any, into an exception; call when it stops being valid. */
    void checkStatus(RocksIterator it) {
        try {
            it.status();
        } catch (RocksDBException e) {
            throw failure("iterate", e);
        }
    }

    private RocksDB db() {
        return store.db();
    }

    private StateStorageException failure(String what, RocksDBException e) {
        return new StateStorageException("RocksDB could not " + what + " " + name + " in " + store.directory() + ": "
                + e.getMessage(), e);
    }
}
