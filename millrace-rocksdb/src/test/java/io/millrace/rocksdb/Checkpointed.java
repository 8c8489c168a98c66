package io.millrace.rocksdb;

import io.millrace.runtime.checkpoint.CheckpointMetadata.OperatorSnapshot;
import io.millrace.runtime.checkpoint.CheckpointMetadata.SubtaskSnapshot;
import io.millrace.runtime.checkpoint.CheckpointMetadata;
import io.millrace.runtime.checkpoint.LocalCheckpointStorage;
import io.millrace.runtime.checkpoint.StateRestorer;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.NativeKeyedStateSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An incremental checkpoint of the RocksDB backends of one operator ("op"), uploaded and committed to real
 * checkpoint storage, to be restored into backends of any parallelism as the runtime does.
 */
record Checkpointed(LocalCheckpointStorage storage, CheckpointMetadata metadata) {
    static final String OPERATOR = "op";

    /** Takes checkpoint {@code id} of {@code backends} (subtasks in order), uploads and commits it. */
    static Checkpointed take(LocalCheckpointStorage storage, List<RocksDbKeyedStateBackend> backends, long id) throws Exception {
        List<SubtaskSnapshot> parts = new ArrayList<>();
        for (int i = 0; i < backends.size(); i++) {
            RocksDbKeyedStateBackend b = backends.get(i);
            var snapshot = (NativeKeyedStateSnapshot) b.snapshot(id, false);
            try {
                parts.add(new SubtaskSnapshot(i, b.keyGroupRange().start(), null, null, null,
                        snapshot.upload(storage, id, OPERATOR + "-" + i).state()));
            } finally {
                snapshot.release();
            }
        }
        int maxParallelism = backends.get(0).maxParallelism();
        CheckpointMetadata metadata = new CheckpointMetadata(id, id, false, "job", maxParallelism,
                Map.of(OPERATOR, new OperatorSnapshot(OPERATOR, OPERATOR, backends.size(), parts)));
        storage.commit(metadata);
        return new Checkpointed(storage, metadata);
    }

    /** Restores the key groups {@code target} owns. */
    void restoreInto(KeyedStateBackend target) throws Exception {
        new StateRestorer(metadata, storage).restoreKeyed(OPERATOR, target, target.keyGroupRange());
    }
}
