package io.millrace.api.metrics;

/**
 * Time use of one task (a chain of operators on one thread), in nanoseconds since it started; how often a source
 * paused on a full channel; how often something (a batch, a watermark it can act on, a barrier, a mail) woke
 * the task while it waited for input; and, for a source with watermark alignment, how often it stopped reading because
 * its watermark was too far ahead of its group's lowest, and for how long in all (that time is part of {@code idleNanos}).
 */
public record TaskMetrics(String task, int subtask, long busyNanos, long backpressuredNanos, long idleNanos, long sourcePauses,
        long wakeups, long alignmentPauses, long alignedNanos) {}
