package io.millrace.runtime.checkpoint;

import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.NativeKeyedState;
import io.millrace.runtime.state.StateHandle;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Restores operators from a completed checkpoint, at any parallelism: keyed state by key group (each new
 * subtask reads the key groups of its range from whichever old subtask wrote them), operator-state items
 * spread round robin over the new subtasks, broadcast state given whole to each.
 */
public final class StateRestorer {
    private final CheckpointMetadata metadata;
    private final CheckpointStorage storage;

    public StateRestorer(CheckpointMetadata metadata, CheckpointStorage storage) {
        this.metadata = metadata;
        this.storage = storage;
    }

    public long checkpointId() {
        return metadata.checkpointId();
    }

    /**
     * Checks that the new job can take the checkpoint: the same number of key groups, and every operator
     * with state has a place to go, unless dropping such state is allowed.
     */
    public void checkCompatible(Set<String> operatorIds, int maxParallelism, boolean allowNonRestoredState) {
        if (metadata.maxParallelism() != maxParallelism) {
            throw new IllegalArgumentException("checkpoint " + metadata.checkpointId() + " was taken with maxParallelism "
                    + metadata.maxParallelism() + ", the job now has " + maxParallelism + ": the number of key groups cannot change");
        }
        Set<String> unmapped = new TreeSet<>();
        for (CheckpointMetadata.OperatorSnapshot op : metadata.operators().values()) {
            boolean hasState = op.subtasks().stream().anyMatch(s -> s.hasKeyedState() || s.operatorState() != null);
            if (hasState && !operatorIds.contains(op.operatorId())) {
                unmapped.add(op.operatorId() + " ('" + op.name() + "')");
            }
        }
        if (!unmapped.isEmpty() && !allowNonRestoredState) {
            throw new IllegalArgumentException("checkpoint " + metadata.checkpointId() + " holds state of operators the job no longer has: "
                    + unmapped + ". Give operators the same uid as before, or allow dropping that state"
                    + " (CheckpointConfig.allowNonRestoredState)");
        }
    }

    /** Whether the checkpoint has an entry for this operator (even without state). */
    public boolean has(String operatorId) {
        return metadata.operators().containsKey(operatorId);
    }

    /**
     * The watermark to start this operator from: the lowest any of its subtasks had at the checkpoint (so also
     * right after a rescale), or {@code Long.MIN_VALUE} if the checkpoint does not know it.
     */
    public long watermark(String operatorId) {
        CheckpointMetadata.OperatorSnapshot op = metadata.operators().get(operatorId);
        return op == null ? Long.MIN_VALUE : op.watermark();
    }

    public int parallelism(String operatorId) {
        CheckpointMetadata.OperatorSnapshot op = metadata.operators().get(operatorId);
        return op == null ? -1 : op.parallelism();
    }

    /**
     * Loads every key group of {@code range} that the checkpoint holds for this operator into the backend:
     * first the backend's own files of the old subtasks that overlap the range (incremental checkpoints),
     * then key-group sections.
     */
    public void restoreKeyed(String operatorId, KeyedStateBackend backend, KeyGroupRange range) throws Exception {
        CheckpointMetadata.OperatorSnapshot op = metadata.operators().get(operatorId);
        if (op == null) {
            return;
        }
        List<NativeKeyedState> nativeParts = new ArrayList<>();
        for (CheckpointMetadata.SubtaskSnapshot s : op.subtasks()) {
            NativeKeyedState n = s.nativeKeyedState();
            if (n != null && n.keyGroups().start() <= range.end() && n.keyGroups().end() >= range.start()) {
                nativeParts.add(n);
            }
        }
        if (!nativeParts.isEmpty() && !backend.restoreNative(metadata.checkpointId(), nativeParts, storage)) {
            throw new IllegalStateException("checkpoint " + metadata.checkpointId() + " holds the keyed state of operator '" + operatorId
                    + "' as files of the " + nativeParts.get(0).backend() + " state backend (an incremental checkpoint), which "
                    + backend.getClass().getSimpleName() + " cannot read: restore it with state.backend "
                    + nativeParts.get(0).backend() + ", the backend that wrote it (a savepoint is a full snapshot, but it too"
                    + " restores only into the backend that wrote it; a change of state backend needs a fresh start)");
        }
        for (CheckpointMetadata.SubtaskSnapshot s : op.subtasks()) {
            if (s.keyedState() == null) {
                continue;
            }
            int oldStart = s.keyGroupStart();
            int oldEnd = oldStart + s.keyGroupOffsets().length - 1;
            int from = Math.max(oldStart, range.start());
            int to = Math.min(oldEnd, range.end());
            if (from > to) {
                continue;
            }
            try (InputStream raw = storage.openStateFile(s.keyedState())) {
                PositionedInput in = new PositionedInput(raw);
                DataInputStream data = new DataInputStream(in);
                for (int kg = from; kg <= to; kg++) {
                    in.skipTo(s.keyGroupOffsets()[kg - oldStart], s.keyedState());
                    backend.restoreKeyGroup(kg, data);
                }
            }
        }
    }

    /**
     * This subtask's share of the operator's items: item {@code j} of all old subtasks goes to {@code j % parallelism};
     * broadcast-state items ({@link VersionedBytes#BROADCAST_STATE}), the same on every old subtask, go to every
     * subtask, those of the first old subtask that stored any.
     */
    public List<Serializable> operatorItems(String operatorId, int subtask, int parallelism) throws IOException {
        CheckpointMetadata.OperatorSnapshot op = metadata.operators().get(operatorId);
        List<Serializable> mine = new ArrayList<>();
        if (op == null) {
            return mine;
        }
        int j = 0;
        boolean broadcastTaken = false;
        for (CheckpointMetadata.SubtaskSnapshot s : op.subtasks()) {
            if (s.operatorState() == null) {
                continue;
            }
            boolean broadcastHere = false;
            for (Serializable item : readItems(s.operatorState())) {
                if (item instanceof VersionedBytes v && v.kind() == VersionedBytes.BROADCAST_STATE) {
                    if (!broadcastTaken) {
                        mine.add(item);
                        broadcastHere = true;
                    }
                } else if (j++ % parallelism == subtask) {
                    mine.add(item);
                }
            }
            broadcastTaken |= broadcastHere;
        }
        return mine;
    }

    private List<Serializable> readItems(StateHandle handle) throws IOException {
        try (InputStream in = storage.openStateFile(handle)) {
            return OperatorStateFormat.read(in, handle.path().toString());
        }
    }

    /** A stream that knows its position, to skip forward to a key group's offset. */
    private static final class PositionedInput extends java.io.FilterInputStream {
        private long position;

        PositionedInput(InputStream in) {
            super(new java.io.BufferedInputStream(in, 1 << 16));
        }

        void skipTo(long offset, StateHandle handle) throws IOException {
            if (offset < position) {
                throw new IOException("key-group offsets of " + handle.path() + " go backwards (" + offset + " < " + position + ")");
            }
            while (position < offset) {
                long skipped = in.skip(offset - position);
                if (skipped <= 0) {
                    if (in.read() < 0) {
                        throw new IOException(handle.path() + " ends before offset " + offset);
                    }
                    skipped = 1;
                }
                position += skipped;
            }
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                position++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                position += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long s = in.skip(n);
            position += Math.max(0, s);
            return s;
        }
    }
}
