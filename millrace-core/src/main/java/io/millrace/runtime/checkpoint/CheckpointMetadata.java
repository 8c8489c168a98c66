package io.millrace.runtime.checkpoint;

import io.millrace.runtime.state.NativeKeyedState;
import io.millrace.runtime.state.StateHandle;
import java.util.List;
import java.util.Map;

/**
 * What a completed checkpoint holds: for every operator (by uid, or by a name-derived id when the user
 * gave none), its parallelism and the state files of each subtask. Written last, atomically: a checkpoint
 * without valid metadata does not exist.
 */
public record CheckpointMetadata(
        long checkpointId, long timestamp, boolean savepoint, String jobName, int maxParallelism, Map<String, OperatorSnapshot> operators) {

    public CheckpointMetadata {
        operators = Map.copyOf(operators);
    }

    /**
     * The state of one operator, all subtasks, and its watermark: the lowest input watermark any of its subtasks
     * had at the barrier ({@code Long.MIN_VALUE} if one had none yet). A restored job starts from it, so that a
     * replayed record is late exactly when it was late before the failure.
     */
    public record OperatorSnapshot(String operatorId, String name, int parallelism, List<SubtaskSnapshot> subtasks, long watermark) {
        public OperatorSnapshot {
            subtasks = List.copyOf(subtasks);
        }

        /** An operator without a known watermark. */
        public OperatorSnapshot(String operatorId, String name, int parallelism, List<SubtaskSnapshot> subtasks) {
            this(operatorId, name, parallelism, subtasks, Long.MIN_VALUE);
        }
    }

    /**
     * The state of one subtask: its keyed state, either as one file of key-group sections
     * ({@code keyedState}; {@code keyGroupOffsets[i]} is where key group {@code keyGroupStart + i} begins in
     * it) or as the backend's own files ({@code nativeKeyedState}, an incremental checkpoint), and its
     * operator state (a list of items that can be spread over another number of subtasks). Any may be null;
     * a subtask has at most one form of keyed state.
     */
    public record SubtaskSnapshot(int subtask, int keyGroupStart, long[] keyGroupOffsets, StateHandle keyedState,
            StateHandle operatorState, NativeKeyedState nativeKeyedState) {
        public SubtaskSnapshot {
            if (nativeKeyedState != null && (keyedState != null || nativeKeyedState.keyGroups().start() != keyGroupStart)) {
                throw new IllegalArgumentException("subtask " + subtask + ": native keyed state must be the only keyed state and start at key group "
                        + keyGroupStart);
            }
        }

        /** A subtask whose keyed state, if any, is one file of key-group sections. */
        public SubtaskSnapshot(int subtask, int keyGroupStart, long[] keyGroupOffsets, StateHandle keyedState, StateHandle operatorState) {
            this(subtask, keyGroupStart, keyGroupOffsets, keyedState, operatorState, null);
        }

        /** Whether the subtask has keyed state in either form. */
        public boolean hasKeyedState() {
            return keyedState != null || nativeKeyedState != null;
        }
    }
}
