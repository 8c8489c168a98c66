package io.millrace.api.metrics;

import java.util.List;

/** A snapshot of every metric of a job (of its current run, after restarts), with its checkpoints so far. */
public record JobMetrics(
        List<OperatorMetrics> operators, List<TaskMetrics> tasks, List<ChannelMetrics> channels, List<CheckpointMetrics> checkpoints, int restarts) {
    public JobMetrics {
        operators = List.copyOf(operators);
        tasks = List.copyOf(tasks);
        channels = List.copyOf(channels);
        checkpoints = List.copyOf(checkpoints);
    }

    /** The last completed checkpoint's id, or -1. */
    public long lastCompletedCheckpoint() {
        long last = -1;
        for (CheckpointMetrics c : checkpoints) {
            if (c.completed()) {
                last = Math.max(last, c.checkpointId());
            }
        }
        return last;
    }

    /** Sum of a counter over all subtasks of the named operator. */
    public long sum(String operator, java.util.function.ToLongFunction<OperatorMetrics> counter) {
        long total = 0;
        for (OperatorMetrics m : operators) {
            if (m.operator().equals(operator)) {
                total += counter.applyAsLong(m);
            }
        }
        return total;
    }

    /** The lowest watermark over all subtasks of the named operator. */
    public long watermark(String operator) {
        long min = Long.MAX_VALUE;
        boolean any = false;
        for (OperatorMetrics m : operators) {
            if (m.operator().equals(operator)) {
                min = Math.min(min, m.watermark());
                any = true;
            }
        }
        return any ? min : Long.MIN_VALUE;
    }
}
