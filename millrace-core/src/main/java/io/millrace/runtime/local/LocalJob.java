package io.millrace.runtime.local;

import io.millrace.api.JobExecutionException;
import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.metrics.ChannelMetrics;
import io.millrace.api.metrics.JobMetrics;
import io.millrace.api.metrics.OperatorMetrics;
import io.millrace.api.metrics.TaskMetrics;
import io.millrace.api.time.Clock;
import io.millrace.runtime.exchange.Channel;
import io.millrace.runtime.metrics.OperatorMetricGroup;
import io.millrace.runtime.plan.OperatorFactory;
import io.millrace.runtime.plan.PhysicalPlan;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.KeyedStateBackendFactory;
import io.millrace.runtime.task.Task;
import io.millrace.runtime.task.TaskHost;
import io.millrace.runtime.task.TaskWiring;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One run of a pipeline in this JVM.
 *
 * <pre>
 *   start ─► RUNNING ─► all tasks finished ─► FINISHED
 *               ├─────► a task failed ─► cancel others ─► FAILED
 *               └─────► cancel() ─────────────────────► CANCELLED
 * </pre>
 */
final class LocalJob implements JobHandle, TaskHost {
    private final String name;
    private final PhysicalPlan plan;
    private final KeyedStateBackendFactory backends;
    private final OperatorFactory operators;
    private final Clock clock;
    private volatile boolean cancelled;
    private volatile boolean userCancelled;
    private volatile Throwable failure;
    private volatile String failedTask;
    private TaskWiring.Wired wired;
    private CountDownLatch running;
    private long startNanos;
    private volatile JobResult result;

    LocalJob(String name, PhysicalPlan plan, KeyedStateBackendFactory backends, OperatorFactory operators) {
        this.name = name;
        this.plan = plan;
        this.backends = backends;
        this.operators = operators;
        this.clock = plan.logical().config().clock();
    }

    void start() {
        try {
            wired = new TaskWiring(plan, this, backends, operators).wire();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new JobExecutionException("job '" + name + "' could not start: " + e.getMessage(), e);
        }
        running = new CountDownLatch(wired.tasks().size());
        startNanos = clock.nanoTime();
        for (Task t : wired.tasks()) {
            Thread thread = new Thread(t, "millrace-" + name + "-" + t.name() + "-" + (t.subtask() + 1));
            thread.setDaemon(true);
            thread.start();
        }
    }

    @Override
    public String jobName() {
        return name;
    }

    @Override
    public JobResult await() throws InterruptedException {
        running.await();
        return finish();
    }

    @Override
    public JobResult await(Duration timeout) throws InterruptedException {
        if (!running.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            return null;
        }
        return finish();
    }

    private synchronized JobResult finish() {
        if (result == null) {
            for (KeyedStateBackend b : wired.backends()) {
                b.close();
            }
            Duration took = Duration.ofNanos(clock.nanoTime() - startNanos);
            result = new JobResult(name, userCancelled, took, metrics());
        }
        Throwable f = failure;
        if (f != null) {
            throw new JobExecutionException("job '" + name + "' failed in task " + failedTask + ": " + f.getMessage(), f);
        }
        return result;
    }

    @Override
    public void cancel() {
        userCancelled = true;
        cancelAll();
    }

    private void cancelAll() {
        cancelled = true;
        for (Task t : wired.tasks()) {
            t.post(() -> {});
        }
    }

    @Override
    public boolean isDone() {
        return running.getCount() == 0;
    }

    @Override
    public JobMetrics metrics() {
        List<OperatorMetrics> ops = new ArrayList<>();
        for (OperatorMetricGroup g : wired.operatorMetrics()) {
            ops.add(g.snapshot());
        }
        List<TaskMetrics> tasks = new ArrayList<>();
        for (Task t : wired.tasks()) {
            tasks.add(t.metrics());
        }
        List<ChannelMetrics> channels = new ArrayList<>();
        for (Channel c : wired.channels()) {
            channels.add(c.metrics());
        }
        return new JobMetrics(ops, tasks, channels);
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
        cancelAll();
    }

    @Override
    public void taskFinished(Task task) {
        running.countDown();
    }

    @Override
    public boolean cancelled() {
        return cancelled;
    }

    Clock clock() {
        return clock;
    }
}
