package io.millrace.runtime.task;

import io.millrace.runtime.checkpoint.CheckpointMetadata.SubtaskSnapshot;
import io.millrace.runtime.checkpoint.CheckpointStorage;
import io.millrace.runtime.checkpoint.OperatorStateFormat;
import io.millrace.runtime.checkpoint.SubtaskAck;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateSnapshot;
import io.millrace.runtime.state.NativeKeyedState;
import io.millrace.runtime.state.NativeKeyedStateSnapshot;
import io.millrace.runtime.state.SnapshotFiles;
import io.millrace.runtime.state.StateHandle;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The asynchronous half of a subtask's snapshot: writes what the task thread captured (keyed snapshots
 * and operator-state items) to the checkpoint's state files, off the task thread. A native keyed snapshot
 * (incremental) uploads the backend's files instead of writing key-group sections; the bytes it reports
 * are those it wrote, not those it refers to.
 */
final class SnapshotWriter {
    /** What the task thread captured of one operator. */
    record Captured(String operatorId, String name, int parallelism, int subtask, KeyGroupRange range,
            KeyedStateSnapshot keyed, List<? extends Serializable> items, long watermark) {}

    private SnapshotWriter() {}

    /** Writes every capture and releases every keyed snapshot, also those not reached when one fails. */
    static SubtaskAck write(CheckpointStorage storage, long checkpointId, List<Captured> captured, long syncNanos, long alignNanos)
            throws IOException {
        try {
            return writeAll(storage, checkpointId, captured, syncNanos, alignNanos);
        } finally {
            release(captured);
        }
    }

    /** Releases the keyed snapshots of {@code captured} (idempotent), e.g. when they will not be written. */
    static void release(List<Captured> captured) {
        for (Captured c : captured) {
            if (c.keyed() != null) {
                c.keyed().release();
            }
        }
    }

    private static SubtaskAck writeAll(CheckpointStorage storage, long checkpointId, List<Captured> captured, long syncNanos,
            long alignNanos) throws IOException {
        List<SubtaskAck.OperatorPart> parts = new ArrayList<>();
        long bytes = 0;
        for (Captured c : captured) {
            StateHandle keyed = null;
            NativeKeyedState nativeKeyed = null;
            long[] offsets = null;
            int start = 0;
            if (c.keyed() instanceof NativeKeyedStateSnapshot n) {
                start = c.range().start();
                try {
                    NativeKeyedStateSnapshot.Upload upload = n.upload(storage, checkpointId, c.operatorId() + "-" + c.subtask());
                    nativeKeyed = upload.state();
                    bytes += upload.bytesWritten();
                } finally {
                    n.release();
                }
            } else if (c.keyed() != null) {
                start = c.range().start();
                offsets = new long[c.range().size()];
                try (SnapshotFiles.StateFileWriter w = storage.createStateFile(checkpointId, c.operatorId() + "-" + c.subtask() + ".keyed")) {
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
                try (SnapshotFiles.StateFileWriter w = storage.createStateFile(checkpointId, c.operatorId() + "-" + c.subtask() + ".op")) {
                    OperatorStateFormat.write(c.items(), w.stream());
                    op = w.closeAndGetHandle();
                }
                bytes += op.size();
            }
            parts.add(new SubtaskAck.OperatorPart(c.operatorId(), c.name(), c.parallelism(),
                    new SubtaskSnapshot(c.subtask(), start, offsets, keyed, op, nativeKeyed), c.watermark()));
        }
        return new SubtaskAck(checkpointId, parts, syncNanos, alignNanos, bytes);
    }
}
