package io.millrace.runtime.checkpoint;

import java.util.List;

/**
 * A task subtask's part of a checkpoint: the state files of each operator in its chain, and how long
 * the task paused for the snapshot and waited for barrier alignment.
 */
public record SubtaskAck(long checkpointId, List<OperatorPart> operators, long syncNanos, long alignmentNanos, long bytes) {
    /** One operator subtask's files, and the input watermark it had at the barrier. */
    public record OperatorPart(String operatorId, String name, int parallelism, CheckpointMetadata.SubtaskSnapshot snapshot, long watermark) {}
}
