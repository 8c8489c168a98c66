package io.millrace.rocksdb;

import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateSnapshot;
import io.millrace.runtime.state.NativeKeyedState;
import io.millrace.runtime.state.SnapshotFiles;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import io.millrace.rocksdb.KeyGroupRows.StatePart;
import io.millrace.rocksdb.KeyGroupRows.TimerPart;
import java.util.ArrayList;
import java.util.List;

/**
 * The checkpoint side of one {@link RocksDbKeyedStateBackend}: full snapshots of its rows, savepoints in the
 * canonical format, incremental native checkpoints, and the restores of each. Every snapshot first flushes
 * the backend's write-back caches; the copying and uploading then happen on the writer thread. Task thread
 * only.
 */
final class RocksDbCheckpoints {
    private final RocksDbKeyedStateBackend backend;
    /** SST files of the backend's database already in checkpoint storage. */
    private final UploadedFiles uploaded = new UploadedFiles();
    /** Makes the names of the backend's shared files unique. */
    private final String instanceId = String.format("%016x", new SecureRandom().nextLong());

    RocksDbCheckpoints(RocksDbKeyedStateBackend backend) {
        this.backend = backend;
    }

    /**
     * Flushes the caches and takes a RocksDB snapshot of every state and timer service, restored ones not
     * created yet included. {@code logicalLoader}: null for the backend's rows, else the class loader for a
     * savepoint's canonical sections.
     */
    KeyedStateSnapshot fullSnapshot(ClassLoader logicalLoader) {
        backend.requireOpen();
        backend.flushForSnapshot(false);
        RocksDbStore store = backend.store();
        return new RocksDbSnapshot(store, backend.keyGroupRange(), store.view(), backend.schema.bytes(), stateParts(),
                timerParts(), logicalLoader, backend.operatorName());
    }

    /**
     * A savepoint: a full snapshot in the canonical format ({@link LogicalRows}), which any backend restores. A
     * checkpoint with incremental checkpoints off: a full snapshot of the backend's rows. Otherwise an
     * incremental one: the caches are flushed, the states' layout is stored in the metadata column, and a
     * native RocksDB checkpoint (memtables flushed, files hard-linked) is taken; the writer thread uploads
     * what is new.
     */
    KeyedStateSnapshot snapshot(long checkpointId, boolean savepoint) {
        if (savepoint) {
            return fullSnapshot(backend.loader);
        }
        if (!backend.config().incremental()) {
            return fullSnapshot(null);
        }
        backend.requireOpen();
        backend.flushForSnapshot(false);
        RocksDbStore store = backend.store();
        StoreLayout.of(stateParts(), timerParts()).writeTo(store.meta());
        Path local = store.checkpoint("chk-" + checkpointId + "-" + instanceId);
        return new IncrementalSnapshot(local, backend.keyGroupRange(), uploaded, instanceId);
    }

    /**
     * Restores the files of an incremental checkpoint. One old subtask with exactly the backend's key
     * groups: its files become the backend's database (fast path), and count as uploaded. Otherwise, for
     * each old subtask, its files are opened as a temporary database, the rows of the key groups the
     * backend owns are copied, and the temporary database is closed and deleted. The schema dictionary comes
     * along: opened with the files, or its rows copied from every temporary database; the stored key shapes
     * are checked at once. Only before any state or timer service is created; restored states then wait to
     * be claimed like those of full snapshots, and are checked against the dictionary when created.
     */
    boolean restoreNative(long checkpointId, List<NativeKeyedState> parts, SnapshotFiles storage) throws IOException {
        backend.requireOpen();
        for (NativeKeyedState part : parts) {
            if (!part.backend().equals(RocksDbStateBackendProvider.NAME)) {
                return false;
            }
        }
        String operatorName = backend.operatorName();
        if (backend.anyCreated()) {
            throw new IllegalStateException("the RocksDB backend of '" + operatorName + "' restores checkpoint " + checkpointId
                    + " after states were created: restore before the operator opens");
        }
        KeyGroupRange range = backend.keyGroupRange();
        RocksDbConfig config = backend.config();
        RestoredRows restored = backend.restored();
        boolean untouched = restored.unclaimedNames().isEmpty();
        if (parts.size() == 1 && parts.get(0).keyGroups().equals(range) && untouched) {
            NativeKeyedState part = parts.get(0);
            backend.replaceStore(RocksDbStore.open(config.baseDirectory(), RocksDbKeyedStateBackend.directoryPrefix(operatorName, range),
                    SharedMemory.acquire(config.managedMemoryBytes()), NativeRestore.download(part, storage)));
            StoreLayout layout = StoreLayout.readFrom(backend.store().meta(), NativeRestore.describe(checkpointId, part));
            backend.schema.check(null, backend.loader, backend.describeKeys());
            for (StoreLayout.State s : layout.states()) {
                restored.beginState(s.name(), s.kind(), s.ttl());
            }
            for (String service : layout.timerServices()) {
                restored.beginTimers(service);
            }
            uploaded.adopt(part);
            return true;
        }
        for (NativeKeyedState part : parts) {
            int from = Math.max(part.keyGroups().start(), range.start());
            int to = Math.min(part.keyGroups().end(), range.end());
            if (from > to) {
                continue;
            }
            try (RocksDbStore old = RocksDbStore.open(config.baseDirectory(),
                    "restore-" + RocksDbKeyedStateBackend.directoryPrefix(operatorName, part.keyGroups()),
                    SharedMemory.acquire(config.managedMemoryBytes()), NativeRestore.download(part, storage))) {
                NativeRestore.copyRows(old, StoreLayout.readFrom(old.meta(), NativeRestore.describe(checkpointId, part)), from, to, restored);
            }
        }
        return true;
    }

    /**
     * Loads one key group's section (see {@link KeyGroupRows}) into the column families. Meant before the
     * operator opens; states and timer services created later by name find their rows.
     */
    void restoreKeyGroup(int keyGroup, DataInputStream in) throws IOException {
        backend.requireOpen();
        KeyGroupRange range = backend.keyGroupRange();
        if (!range.contains(keyGroup)) {
            throw new IllegalArgumentException("cannot restore key group " + keyGroup + ": this backend owns key groups "
                    + RocksDbKeyedStateBackend.rangeText(range) + " (maxParallelism " + backend.maxParallelism() + ")");
        }
        backend.flushForSnapshot(true);
        KeyGroupRows.read(in, keyGroup, backend.restored(), backend.loader, backend.operatorName());
    }

    /** SST files the backend's incremental snapshots will not upload again. */
    int uploadedFileCount() {
        return uploaded.size();
    }

    /** Every state, restored ones not created yet included, as a snapshot sees it. */
    List<StatePart> stateParts() {
        RocksStates states = backend.states();
        List<StatePart> stateParts = new ArrayList<>(states.size());
        states.addParts(stateParts);
        backend.restored().addUnclaimedStates(stateParts);
        return List.copyOf(stateParts);
    }

    /** Every timer service, restored ones not created yet included. */
    List<TimerPart> timerParts() {
        RocksTimerServices timerServices = backend.timers();
        List<TimerPart> timerParts = new ArrayList<>(timerServices.size());
        timerServices.addParts(timerParts);
        backend.restored().addUnclaimedTimers(timerParts);
        return List.copyOf(timerParts);
    }
}
