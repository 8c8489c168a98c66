package io.millrace.runtime.local;

import io.millrace.api.JobExecutionException;
import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.CheckpointConfig;
import io.millrace.api.PipelineConfig;
import io.millrace.api.RestartStrategy;
import io.millrace.api.metrics.CheckpointMetrics;
import io.millrace.api.metrics.JobMetrics;
import io.millrace.api.time.Clock;
import io.millrace.runtime.checkpoint.CheckpointMetadata;
import io.millrace.runtime.checkpoint.CheckpointStats;
import io.millrace.runtime.checkpoint.CheckpointStorage;
import io.millrace.runtime.checkpoint.ControlRequest;
import io.millrace.runtime.checkpoint.ControlRequests;
import io.millrace.runtime.checkpoint.OperatorIds;
import io.millrace.runtime.checkpoint.StateRestorer;
import io.millrace.runtime.checkpoint.StartingPoint;
import io.millrace.runtime.plan.OperatorFactory;
import io.millrace.runtime.plan.PhysicalPlan;
import io.millrace.runtime.state.KeyedStateBackendFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job running in this JVM. Each run of its tasks is a {@link JobAttempt}; when a task fails and the
 * restart strategy allows, the job waits, then starts a new attempt from the latest complete checkpoint
 * (or from the beginning when there is none).
 *
 * <pre>
 *   start ─► RUNNING ─► all tasks finished ─────────────► FINISHED
 *               │  └──► a task failed ─► restarts left? ─ yes ─► (delay) ─► RUNNING
 *               │                                        no ──► FAILED
 *               └─────► cancel() ──────────────────────────────► CANCELLED
 * </pre>
 */
final class LocalJob implements JobHandle {
    private static final Logger LOG = LoggerFactory.getLogger(LocalJob.class);

    private final String name;
    private final PhysicalPlan plan;
    private final KeyedStateBackendFactory backends;
    private final OperatorFactory operators;
    private final CheckpointStorage storage;
    private final Clock clock;
    private final RestartStrategy restarts;
    private final ControlRequests control;
    private final CountDownLatch done = new CountDownLatch(1);
    private final List<CheckpointStats> pastCheckpoints = new ArrayList<>();
    private volatile JobAttempt current;
    private volatile boolean userCancelled;
    private volatile Throwable failure;
    private volatile String failedTask;
    private volatile int restartCount;
    private long startNanos;
    private volatile JobResult result;
    private long previousAttemptsLastId = -1; // supervisor thread only, after the first attempt

    LocalJob(String name, PhysicalPlan plan, KeyedStateBackendFactory backends, OperatorFactory operators, CheckpointStorage storage) {
        this.name = name;
        this.plan = plan;
        this.backends = backends;
        this.operators = operators;
        this.storage = storage;
        PipelineConfig config = plan.logical().config();
        this.clock = config.clock();
        this.restarts = config.restartStrategy();
        Path directory = config.checkpoints().directory();
        this.control = storage == null || directory == null ? null : new ControlRequests(ControlRequest.directoryOf(directory), this);
    }

    /** Starts the first attempt on the caller's thread, so that setup errors surface at once. */
    void start() {
        startNanos = clock.nanoTime();
        if (control != null) {
            control.discardEarlierRequests();
        }
        JobAttempt first = newAttempt(0);
        current = first;
        first.start();
        Thread supervisor = new Thread(() -> supervise(first), "millrace-" + name + "-supervisor");
        supervisor.setDaemon(true);
        supervisor.start();
    }

    private JobAttempt newAttempt(int number) {
        try {
            StateRestorer restorer = null;
            long lastUsedId = -1;
            if (storage != null) {
                CheckpointConfig checkpoints = plan.logical().config().checkpoints();
                storage.retain(checkpoints.retained()); // clears what a crash left half-written
                StartingPoint start = StartingPoint.choose(storage, checkpoints.restoreFrom(), w -> LOG.warn("job '{}': {}", name, w));
                // ids are never reused in one process: a checkpoint the previous attempt left in progress keeps its id
                lastUsedId = Math.max(start.lastUsedId(), previousAttemptsLastId);
                if (start.restore().isPresent()) {
                    restorer = new StateRestorer(start.restore().get(), storage);
                    restorer.checkCompatible(operatorIds(), plan.logical().config().maxParallelism(), checkpoints.allowNonRestoredState());
                    LOG.info("job '{}' resumes from {}", name, start.description());
                }
            }
            JobAttempt attempt = new JobAttempt(name, number, plan, backends, operators, storage, restorer, lastUsedId);
            if (control != null && attempt.coordinator() != null) {
                attempt.coordinator().watch(control);
            }
            return attempt;
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new JobExecutionException("job '" + name + "' could not start: " + e.getMessage(), e);
        }
    }

    private Set<String> operatorIds() {
        Set<String> ids = new HashSet<>();
        plan.logical().nodes().forEach(n -> ids.add(OperatorIds.of(n)));
        return ids;
    }

    private void supervise(JobAttempt attempt) {
        try {
            while (true) {
                attempt.await(-1);
                keepStats(attempt);
                attempt.release();
                Throwable f = attempt.failure();
                if (f == null || userCancelled) {
                    break;
                }
                if (restartCount >= restarts.maxRestarts()) {
                    failure = f;
                    failedTask = attempt.failedTask();
                    break;
                }
                restartCount++;
                Duration delay = restarts.delayBefore(restartCount);
                LOG.warn("job '{}': task {} failed ({}); restart {} of {} in {}", name, attempt.failedTask(), f.toString(),
                        restartCount, restarts.maxRestarts(), delay);
                pause(delay);
                if (userCancelled) {
                    break;
                }
                try {
                    attempt = newAttempt(restartCount);
                } catch (RuntimeException e) {
                    failure = e;
                    failedTask = "restart " + restartCount;
                    break;
                }
                current = attempt;
                attempt.start();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = e;
        } finally {
            logEnd();
            done.countDown();
        }
    }

    /** Logs how the job ended and what each source read; on the supervisor thread, before waiters are released. */
    private void logEnd() {
        String outcome = failure != null ? "failed" : userCancelled ? "was cancelled" : "finished";
        List<String> sources = SourceSummary.lines(plan.logical(), metrics());
        LOG.info("job '{}' {}{}{}", name, outcome, sources.isEmpty() ? "" : ": ", String.join("; ", sources));
    }

    private void pause(Duration delay) {
        long end = clock.nanoTime() + delay.toNanos();
        while (!userCancelled) {
            long left = end - clock.nanoTime();
            if (left <= 0) {
                return;
            }
            LockSupport.parkNanos(this, Math.min(left, 50_000_000L));
        }
    }

    private synchronized void keepStats(JobAttempt attempt) {
        if (attempt.coordinator() != null) {
            pastCheckpoints.addAll(attempt.coordinator().stats());
            previousAttemptsLastId = Math.max(previousAttemptsLastId, attempt.coordinator().lastTriggeredId());
        }
    }

    @Override
    public String jobName() {
        return name;
    }

    @Override
    public JobResult await() throws InterruptedException {
        done.await();
        awaitControlAnswers();
        return finish();
    }

    @Override
    public JobResult await(Duration timeout) throws InterruptedException {
        if (!done.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            return null;
        }
        awaitControlAnswers();
        return finish();
    }

    /** Lets answers to control requests (a stop with savepoint) reach their files before a caller may exit the process. */
    private void awaitControlAnswers() throws InterruptedException {
        if (control != null) {
            control.awaitAnswers();
        }
    }

    private synchronized JobResult finish() {
        if (result == null) {
            Duration took = Duration.ofNanos(clock.nanoTime() - startNanos);
            result = new JobResult(name, userCancelled, took, metrics());
        }
        Throwable f = failure;
        if (f != null) {
            String restartsNote = restartCount > 0 ? " after " + restartCount + " restart(s)" : "";
            throw new JobExecutionException("job '" + name + "' failed in task " + failedTask + restartsNote + ": " + f.getMessage(), f);
        }
        return result;
    }

    @Override
    public void cancel() {
        userCancelled = true;
        JobAttempt a = current;
        if (a != null) {
            a.cancel();
        }
    }

    @Override
    public boolean isDone() {
        return done.getCount() == 0;
    }

    @Override
    public CompletableFuture<Long> triggerCheckpoint() {
        JobAttempt a = current;
        if (a == null || a.coordinator() == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("checkpointing is off for job '" + name + "'"));
        }
        return a.coordinator().triggerNow(false).thenApply(CheckpointMetadata::checkpointId);
    }

    @Override
    public CompletableFuture<String> triggerSavepoint() {
        JobAttempt a = current;
        if (a == null || a.coordinator() == null) {
            return noSavepoints();
        }
        return a.coordinator().triggerNow(true).thenApply(this::savepointPointer);
    }

    @Override
    public CompletableFuture<String> stopWithSavepoint() {
        JobAttempt a = current;
        if (a == null || a.coordinator() == null) {
            return noSavepoints();
        }
        CompletableFuture<String> stopped = new CompletableFuture<>();
        a.coordinator().triggerSavepointBeforeStop().whenComplete((metadata, failure) -> {
            if (failure != null) {
                stopped.completeExceptionally(failure);
                return;
            }
            // completions run under the coordinator's lock: wait for the sinks' commits on a thread of our own
            Thread stopper = new Thread(() -> stopAfter(a, metadata, stopped), "millrace-" + name + "-stop");
            stopper.setDaemon(true);
            stopper.start();
        });
        return stopped;
    }

    /** Waits until every running task has committed savepoint {@code metadata}, cancels the job and waits for it to end. */
    private void stopAfter(JobAttempt attempt, CheckpointMetadata metadata, CompletableFuture<String> stopped) {
        try {
            String pointer = savepointPointer(metadata);
            while (!attempt.allNotified(metadata.checkpointId()) && !attempt.isDone()) {
                LockSupport.parkNanos(this, 1_000_000L);
            }
            cancel();
            done.await();
            stopped.complete(pointer);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped.completeExceptionally(e);
        } catch (RuntimeException e) {
            stopped.completeExceptionally(e);
        }
    }

    private String savepointPointer(CheckpointMetadata metadata) {
        return storage.savepointPointer(metadata.checkpointId()).orElseThrow(() -> new IllegalStateException(
                "savepoint " + metadata.checkpointId() + " of job '" + name + "' was committed but its directory is unknown"));
    }

    private CompletableFuture<String> noSavepoints() {
        return CompletableFuture.failedFuture(new IllegalStateException("job '" + name + "' has no checkpoint directory:"
                + " savepoints need one (set option 'checkpoint directory', CheckpointConfig.directory)"));
    }

    @Override
    public synchronized JobMetrics metrics() {
        JobAttempt a = current;
        List<CheckpointMetrics> checkpoints = new ArrayList<>();
        List<CheckpointStats> all = new ArrayList<>(pastCheckpoints);
        if (a != null && a.coordinator() != null && !a.isDone()) {
            all.addAll(a.coordinator().stats());
        }
        for (CheckpointStats s : all) {
            checkpoints.add(new CheckpointMetrics(s.checkpointId(), s.status() == CheckpointStats.Status.COMPLETED, s.durationMillis(),
                    s.bytes(), s.maxAlignmentMillis(), s.maxSyncPauseMicros()));
        }
        return new JobMetrics(a.operatorMetrics(), a.taskMetrics(), a.channelMetrics(), checkpoints, restartCount);
    }
}
