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

    /**
     * Takes a savepoint now: a checkpoint moved to the savepoint directory
     * ({@link CheckpointConfig#savepointDirectory()}), self-contained and never deleted by Millrace. It
     * waits for a checkpoint in progress to finish first. The future completes with the savepoint's
     * directory (give it to {@link CheckpointConfig#restoreFrom}) once it is complete, or fails if it is
     * abandoned, the job ends first, or the job has no checkpoint directory. Exactly-once sinks commit
     * what it covers, as for any checkpoint.
     */
    java.util.concurrent.CompletableFuture<String> triggerSavepoint();

    /**
     * Takes a savepoint, then stops the job: no checkpoint is started after it, exactly-once sinks
     * commit the output it covers, and then every task is cancelled ({@link #await()} returns a result
     * marked cancelled). The future completes with the savepoint's directory once the job has stopped.
     * If the savepoint fails, the job keeps running and the future fails.
     */
    java.util.concurrent.CompletableFuture<String> stopWithSavepoint();

    /** A consistent-enough snapshot of the job's metrics, cheap to take while it runs. */
    JobMetrics metrics();
}
