package io.millrace.runtime.checkpoint;

/**
 * Figures of one checkpoint: how long it took from trigger to completion, its size, the longest barrier
 * alignment and the longest synchronous snapshot pause of any subtask.
 */
public record CheckpointStats(long checkpointId, Status status, long durationMillis, long bytes, long maxAlignmentMillis, long maxSyncPauseMicros) {
    /** How a checkpoint ended. */
    public enum Status {
        COMPLETED,
        ABORTED
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "checkpoint %d %s in %d ms, %,d bytes, alignment %d ms, sync pause %d µs",
                checkpointId, status.name().toLowerCase(java.util.Locale.ROOT), durationMillis, bytes, maxAlignmentMillis, maxSyncPauseMicros);
    }
}
