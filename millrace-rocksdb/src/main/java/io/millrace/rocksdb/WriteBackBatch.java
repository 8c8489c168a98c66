package io.millrace.rocksdb;

import java.util.Arrays;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * The rows a {@link StateCache} writes back, queued until {@link #commit} writes them to RocksDB in one
 * {@link WriteBatch}, in the order of their keys' first bytes: a memtable is a skip list that remembers where
 * its last insert went, so rows inserted in key order each start their search next to the previous one instead
 * of from the top. The order only saves work; rows of different keys may go in any order. The queue's objects
 * are reused from one commit to the next. Task thread only.
 */
final class WriteBackBatch implements AutoCloseable {
    /** Most rows a batch is sorted for: their index must fit the low 16 bits of {@link #sortKey}. */
    private static final int MAX_SORTED = 1 << 16;

    private static final byte PUT = 0;
    private static final byte MERGE = 1;
    private static final byte DELETE = 2;

    /** A queued row. */
    private static final class Pending {
        StateColumn column;
        byte[] key;
        byte[] row;
        byte op;
    }

    private final RocksDbKeyedStateBackend backend;
    private final WriteBatch batch = new WriteBatch();
    /** Rows queued since the last {@link #commit}, in {@code [0, count)}. */
    private Pending[] pending = new Pending[64];
    /** Per queued row, the first six bytes of its key, then its index in {@link #pending}: sorted by {@link #commit}. */
    private long[] order = new long[64];
    private int count;

    WriteBackBatch(RocksDbKeyedStateBackend backend) {
        this.backend = backend;
    }

    /** Queues a put of {@code row}, a merge of it when {@code merge} (list appends), or a delete when it is null. */
    void add(StateColumn column, byte[] key, byte[] row, boolean merge) {
        if (count == pending.length) {
            pending = Arrays.copyOf(pending, count * 2);
            order = Arrays.copyOf(order, count * 2);
        }
        order[count] = sortKey(key, count);
        Pending w = pending[count];
        if (w == null) {
            pending[count] = w = new Pending();
        }
        count++;
        w.column = column;
        w.key = key;
        w.row = row;
        w.op = row == null ? DELETE : merge ? MERGE : PUT;
    }

    /** Writes the queued rows to RocksDB in one batch and empties the queue; does nothing when it is empty. */
    void commit() {
        int n = count;
        if (n == 0) {
            return;
        }
        boolean sorted = n <= MAX_SORTED;
        if (sorted) {
            Arrays.sort(order, 0, n);
        }
        try {
            for (int i = 0; i < n; i++) {
                Pending w = pending[sorted ? (int) order[i] & 0xFFFF : i];
                batch(w);
                w.column = null;
                w.key = null;
                w.row = null;
            }
        } finally {
            count = 0;
        }
        backend.write(batch);
        batch.clear();
    }

    /**
     * {@code index} in the low 16 bits, above them the first six bytes of {@code key} (zeros past its end),
     * sign bit flipped: sorting the longs orders by those bytes as unsigned, then by index.
     */
    static long sortKey(byte[] key, int index) {
        long prefix = 0;
        for (int i = 0; i < 6; i++) {
            prefix = (prefix << 8) | (i < key.length ? key[i] & 0xFF : 0);
        }
        return ((prefix << 16) | (index & 0xFFFF)) ^ Long.MIN_VALUE;
    }

    private void batch(Pending w) {
        try {
            ColumnFamilyHandle handle = w.column.bytes().handle();
            switch (w.op) {
                case DELETE -> batch.delete(handle, w.key);
                case MERGE -> batch.merge(handle, w.key, w.row);
                default -> batch.put(handle, w.key, w.row);
            }
        } catch (RocksDBException ex) {
            throw new StateStorageException("cannot batch a write of " + w.column.kind + " state '" + w.column.name + "'", ex);
        }
    }

    /** Releases the native batch; nothing may be queued afterwards. */
    @Override
    public void close() {
        batch.close();
    }
}
