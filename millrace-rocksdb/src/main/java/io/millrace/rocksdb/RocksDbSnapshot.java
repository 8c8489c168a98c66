package io.millrace.rocksdb;

import io.millrace.rocksdb.KeyGroupRows.StatePart;
import io.millrace.rocksdb.KeyGroupRows.TimerPart;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateSnapshot;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;

/**
 * A full checkpoint or a savepoint of a {@link RocksDbKeyedStateBackend}: a {@link StoreView} (a RocksDB snapshot)
 * taken on the task thread, and the lists of states and timer services at that moment. {@link #write} copies the
 * rows key group by key group on the snapshot writer thread, as rows ({@link KeyGroupRows}) for a checkpoint and
 * in the canonical format ({@link LogicalRows}) for a savepoint, while the task goes on
 * writing; its changes do not show. {@link #release} frees the RocksDB snapshot; closing the backend does
 * too, and a write still running then fails at its next key group instead of reading a closed database.
 * {@code write} and {@code release} are called from one thread (any).
 */
final class RocksDbSnapshot implements KeyedStateSnapshot {
    private final RocksDbStore store;
    private final KeyGroupRange range;
    private final StoreView view;
    private final BytesColumn schema;
    private final List<StatePart> states;
    private final List<TimerPart> timers;
    /** For a savepoint: the canonical sections' writer's class loader and operator; null for a checkpoint (rows). */
    private final ClassLoader logicalLoader;
    private final String operator;

    /**
     * {@code logicalLoader}: null to write this backend's own rows ({@link KeyGroupRows}, a checkpoint), else the
     * class loader of user classes for writing canonical sections ({@link LogicalRows}, a savepoint).
     */
    RocksDbSnapshot(RocksDbStore store, KeyGroupRange range, StoreView view, BytesColumn schema, List<StatePart> states,
            List<TimerPart> timers, ClassLoader logicalLoader, String operator) {
        this.logicalLoader = logicalLoader;
        this.operator = operator;
        this.store = store;
        this.range = range;
        this.view = view;
        this.schema = schema;
        this.states = states;
        this.timers = timers;
    }

    @Override
    public void write(DataOutputStream out, PositionSource positions, long[] keyGroupOffsets) throws IOException {
        if (keyGroupOffsets.length < range.size()) {
            throw new IllegalArgumentException("keyGroupOffsets has room for " + keyGroupOffsets.length
                    + " key groups, the snapshot has " + range.size());
        }
        if (!store.enter()) {
            throw closed();
        }
        try {
            LogicalRows.Writer logical = logicalLoader == null ? null
                    : new LogicalRows.Writer(view, schema, states, timers, logicalLoader, operator);
            for (int i = 0; i < range.size(); i++) {
                if (store.closing()) {
                    throw closed();
                }
                out.flush();
                keyGroupOffsets[i] = positions.position();
                if (logical != null) {
                    logical.write(out, range.start() + i);
                } else {
                    KeyGroupRows.write(out, range.start() + i, view, schema, states, timers);
                }
            }
            out.flush();
        } finally {
            store.exit();
        }
    }

    @Override
    public void release() {
        store.closeView(view);
    }

    private IOException closed() {
        return new IOException("the RocksDB backend of key groups [" + range.start() + ", " + range.end()
                + "] was closed while its snapshot was being written");
    }
}
