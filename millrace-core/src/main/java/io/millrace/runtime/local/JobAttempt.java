package io.millrace.runtime.local;

import io.millrace.api.PipelineConfig;
import io.millrace.api.metrics.ChannelMetrics;
import io.millrace.api.metrics.OperatorMetrics;
import io.millrace.api.metrics.TaskMetrics;
import io.millrace.operator.OperatorMetricGroup;
import io.millrace.runtime.checkpoint.CheckpointCoordinator;
import io.millrace.runtime.checkpoint.CheckpointStorage;
import io.millrace.runtime.checkpoint.StateRestorer;
import io.millrace.runtime.checkpoint.TaskCheckpointing;
import io.millrace.runtime.exchange.Channel;
import io.millrace.runtime.plan.OperatorFactory;
import io.millrace.runtime.plan.PhysicalPlan;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.KeyedStateBackendFactory;
import io.millrace.runtime.task.SourceTask;
import io.millrace.runtime.task.Task;
import io.millrace.runtime.task.TaskHost;
import io.millrace.runtime.task.TaskWiring;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * One run of a job's tasks, from a fresh start or from a checkpoint. A job that restarts after a failure
 * makes a new attempt; an attempt is never reused.
 */
final class JobAttempt implements TaskHost, CheckpointCoordinator.TaskGateway {
    private final String jobName;
    private final int number;
    private final TaskWiring.Wired wired;
    private final CountDownLatch running;
    private final CheckpointCoordinator coordinator;
    private final TaskCheckpointing checkpointing;
    private final ExecutorService snapshotWriter;
    private volatile boolean cancelled;
    private volatile Throwable failure;
    private volatile String failedTask;

    JobAttempt(String jobName, int number, PhysicalPlan plan, KeyedStateBackendFactory backends, OperatorFactory operators,
            CheckpointStorage storage, StateRestorer restorer, long lastUsedCheckpointId) throws Exception {
        this.jobName = jobName;
        this.number = number;
        PipelineConfig config = plan.logical().config();
        if (storage != null) {
            int taskCount = 0;
            for (PhysicalPlan.Chain c : plan.chains()) {
                taskCount += c.parallelism();
            }
            snapshotWriter = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "millrace-" + jobName + "-snapshot-writer");
                t.setDaemon(true);
                return t;
            });
            coordinator = new CheckpointCoordinator(config.checkpoints(), storage, jobName, config.maxParallelism(), taskCount,
                    config.clock(), this, lastUsedCheckpointId);
            checkpointing = new TaskCheckpointing(config.checkpoints().mode(), storage, snapshotWriter, coordinator);
        } else {
            snapshotWriter = null;
            coordinator = null;
            checkpointing = null;
        }
        this.wired = new TaskWiring(plan, this, backends, operators, restorer).wire();
        this.running = new CountDownLatch(wired.tasks().size());
    }

    void start() {
        for (Task t : wired.tasks()) {
            Thread thread = new Thread(t, "millrace-" + jobName + "-" + t.name() + "-" + (t.subtask() + 1) + (number > 0 ? "-r" + number : ""));
            thread.setDaemon(true);
            thread.start();
        }
        wired.sources().start(jobName, this::sourceCoordinationFailed);
        if (coordinator != null) {
            coordinator.start();
        }
    }

    private void sourceCoordinationFailed(Throwable cause) {
        synchronized (this) {
            if (failure == null) {
                failure = cause;
                failedTask = "split enumerator";
            } else if (failure != cause) {
                failure.addSuppressed(cause);
            }
        }
        cancel();
    }

    /** Waits for every task to stop; returns false if {@code timeoutMillis} passed first (negative: no bound). */
    boolean await(long timeoutMillis) throws InterruptedException {
        if (timeoutMillis < 0) {
            running.await();
            return true;
        }
        return running.await(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    boolean isDone() {
        return running.getCount() == 0;
    }

    /** Whether every task still running has been told that checkpoint {@code checkpointId} is complete and acted on it. */
    boolean allNotified(long checkpointId) {
        for (Task t : wired.tasks()) {
            if (t.state() == Task.State.RUNNING && t.lastCompletedCheckpoint() < checkpointId) {
                return false;
            }
        }
        return true;
    }

    /** Frees what the attempt holds once its tasks have stopped. Idempotent. */
    void release() {
        if (coordinator != null) {
            coordinator.stop();
        }
        wired.sources().close();
        if (snapshotWriter != null) {
            snapshotWriter.shutdown();
            try {
                snapshotWriter.awaitTermination(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (KeyedStateBackend b : wired.backends()) {
            b.close();
        }
    }

    void cancel() {
        cancelled = true;
        for (Task t : wired.tasks()) {
            t.post(() -> {});
        }
    }

    Throwable failure() {
        return failure;
    }

    String failedTask() {
        return failedTask;
    }

    CheckpointCoordinator coordinator() {
        return coordinator;
    }

    List<OperatorMetrics> operatorMetrics() {
        List<OperatorMetrics> ops = new ArrayList<>();
        for (OperatorMetricGroup g : wired.operatorMetrics()) {
            ops.add(g.snapshot());
        }
        return ops;
    }

    List<TaskMetrics> taskMetrics() {
        List<TaskMetrics> tasks = new ArrayList<>();
        for (Task t : wired.tasks()) {
            tasks.add(t.metrics());
        }
        return tasks;
    }

    List<ChannelMetrics> channelMetrics() {
        List<ChannelMetrics> channels = new ArrayList<>();
        for (Channel c : wired.channels()) {
            channels.add(c.metrics());
        }
        return channels;
    }

    // ---- TaskHost ----

    @Override
    public void taskFailed(Task task, Throwable cause) {
        synchronized (this) {
            if (failure == null) {
                failure = cause;
                failedTask = task.toString();
            } else if (failure != cause) {
                failure.addSuppressed(cause);
            }
        }
        cancel();
    }

    @Override
    public void taskFinished(Task task) {
        running.countDown();
    }

    @Override
    public boolean cancelled() {
        return cancelled;
    }

    @Override
    public TaskCheckpointing checkpointing() {
        return checkpointing;
    }

    // ---- TaskGateway ----

    @Override
    public void triggerSources(long checkpointId, long timestamp, boolean savepoint) {
        try {
            wired.sources().triggerCheckpoint(checkpointId, () -> {
                for (Task t : wired.tasks()) {
                    if (t instanceof SourceTask s) {
                        s.triggerCheckpoint(checkpointId, savepoint);
                    }
                }
            });
        } catch (Exception e) {
            sourceCoordinationFailed(new IllegalStateException("checkpoint " + checkpointId + ": a split enumerator failed to snapshot: " + e, e));
        }
    }

    @Override
    public void notifyComplete(long checkpointId) {
        try {
            wired.sources().notifyCheckpointComplete(checkpointId);
        } catch (Exception e) {
            sourceCoordinationFailed(new IllegalStateException("checkpoint " + checkpointId + ": a split enumerator failed on its completion: " + e, e));
        }
        for (Task t : wired.tasks()) {
            t.notifyCheckpointComplete(checkpointId);
        }
    }

    @Override
    public void notifyAborted(long checkpointId) {
        for (Task t : wired.tasks()) {
            t.notifyCheckpointAborted(checkpointId);
        }
    }
}
