package io.millrace.rocksdb;

import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;

/**
 * Every column of a {@link RocksDbStore} as it was at one moment: a RocksDB snapshot and read options
 * bound to it. Later writes do not show through it. Taken on the task thread; then read by one other
 * thread (the snapshot writer) between {@link RocksDbStore#enter} and {@link RocksDbStore#exit}.
 * Closed by {@link RocksDbStore#closeView} or by the store's close, whichever comes first.
 */
final class StoreView {
    private final RocksDB db;
    private final Snapshot snapshot;
    private final ReadOptions options;

    StoreView(RocksDB db) {
        this.db = db;
        this.snapshot = db.getSnapshot();
        this.options = new ReadOptions().setSnapshot(snapshot).setFillCache(false);
    }

    /** A new iterator over the column as of this view; the caller closes it, inside the store. */
    RocksIterator scan(BytesColumn column) {
        return db.newIterator(column.handle(), options);
    }

    /** Frees the native objects; the database must still be open. Called by the store only. */
    void free() {
        db.releaseSnapshot(snapshot);
        options.close();
    }
}
