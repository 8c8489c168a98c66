package io.millrace.api.metrics;

/**
 * One checkpoint: whether it completed, how long it took from trigger to completion, its size, the
 * longest barrier alignment and the longest synchronous snapshot pause of any subtask.
 */
public record CheckpointMetrics(long checkpointId, boolean completed, long durationMillis, long bytes, long maxAlignmentMillis, long maxSyncPauseMicros) {}
