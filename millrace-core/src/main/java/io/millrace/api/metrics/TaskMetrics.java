package io.millrace.api.metrics;

/** Time use of one task (a chain of operators on one thread), in nanoseconds since it started. */
public record TaskMetrics(String task, int subtask, long busyNanos, long backpressuredNanos, long idleNanos, long sourcePauses) {}
