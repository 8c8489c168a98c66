package io.millrace.runtime.task;

import io.millrace.runtime.checkpoint.CheckpointMetadata.SubtaskSnapshot;
import io.millrace.runtime.checkpoint.CheckpointStorage;
import io.millrace.runtime.checkpoint.KeyedStateSnapshot;
import io.millrace.runtime.checkpoint.StateHandle;
import io.millrace.runtime.checkpoint.SubtaskAck;
import io.millrace.runtime.state.KeyGroupRange;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The asynchronous half of a subtask's snapshot: writes what the task thread captured (keyed snapshots
 * and operator-state items) to the checkpoint's state files, off the task thread.
 */
final class SnapshotWriter {
    /** What the task thread captured of one operator. */
    record Captured(String operatorId, String name, int parallelism, int subtask, KeyGroupRange range,
            KeyedStateSnapshot keyed, List<? extends Serializable> items, long watermark) {}

    private SnapshotWriter() {}

    static SubtaskAck write(CheckpointStorage storage, long checkpointId, List<Captured> captured, long syncNanos, long alignNanos)
            throws IOException {
        List<SubtaskAck.OperatorPart> parts = new ArrayList<>();
        long bytes = 0;
        for (Captured c : captured) {
            StateHandle keyed = null;
            long[] offsets = null;
            int start = 0;
            if (c.keyed() != null) {
                start = c.range().start();
                offsets = new long[c.range().size()];
                try (CheckpointStorage.StateFileWriter w = storage.createStateFile(checkpointId, c.operatorId() + "-" + c.subtask() + ".keyed")) {
                    DataOutputStream out = new DataOutputStream(w.stream());
                    c.keyed().write(out, w::position, offsets);
                    out.flush();
                    keyed = w.closeAndGetHandle();
                } finally {
                    c.keyed().release();
                }
                bytes += keyed.size();
            }
            StateHandle op = null;
            if (c.items() != null && !c.items().isEmpty()) {
                try (CheckpointStorage.StateFileWriter w = storage.createStateFile(checkpointId, c.operatorId() + "-" + c.subtask() + ".op")) {
                    ObjectOutputStream out = new ObjectOutputStream(w.stream());
                    out.writeObject(new ArrayList<>(c.items()));
                    out.flush();
                    op = w.closeAndGetHandle();
                }
                bytes += op.size();
            }
            parts.add(new SubtaskAck.OperatorPart(c.operatorId(), c.name(), c.parallelism(),
                    new SubtaskSnapshot(c.subtask(), start, offsets, keyed, op), c.watermark()));
        }
        return new SubtaskAck(checkpointId, parts, syncNanos, alignNanos, bytes);
    }
}
