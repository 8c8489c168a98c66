package io.millrace.api;

import io.millrace.api.metrics.JobMetrics;
import java.time.Duration;

/** A running job. Thread-safe. */
public interface JobHandle {
    String jobName();

    /** Blocks until the job ends; throws {@link JobExecutionException} if it failed. */
    JobResult await() throws InterruptedException;

    /** Like {@link #await()} with a bound; returns null if the job is still running after it. */
    JobResult await(Duration timeout) throws InterruptedException;

    /** Stops every task; idempotent. {@link #await()} then returns a result marked cancelled. */
    void cancel();

    boolean isDone();

    /**
     * Starts a checkpoint now, besides the periodic ones; the future completes with its id once it is
     * complete everywhere, or fails if it is abandoned or checkpointing is off.
     */
    java.util.concurrent.CompletableFuture<Long> triggerCheckpoint();

    /** A consistent-enough snapshot of the job's metrics, cheap to take while it runs. */
    JobMetrics metrics();
}
