package io.millrace.runtime.checkpoint;

import io.millrace.api.CheckpointConfig;
import io.millrace.api.time.Clock;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Triggers checkpoints and completes them. A checkpoint starts at the sources (a mail to each source
 * task), travels as barriers, and is complete when every task subtask has acknowledged it: then its
 * metadata is committed to storage, old checkpoints are pruned, and every task is notified (two-phase
 * sinks commit then). One checkpoint is in progress at a time: a savepoint or checkpoint asked for while
 * another is in progress waits in a queue and starts when it has completed or been abandoned, so that a
 * savepoint and a periodic checkpoint never overlap (storage retention may then delete nothing that is
 * still being written).
 *
 * <p>When the first task reaches the end of its input, periodic checkpoints stop and one final
 * checkpoint is reserved: each task snapshots after it has emitted everything, so the final checkpoint
 * holds all output (see {@link #reserveFinalCheckpoint}).
 *
 * <p>Thread use: the trigger thread, the tasks' snapshot-writing threads (acknowledgements) and user
 * threads (savepoints) call it; all state is guarded by this object's lock.
 */
public final class CheckpointCoordinator {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointCoordinator.class);
    private static final long TICK_NANOS = 20_000_000L;

    /** How the coordinator reaches the tasks. */
    public interface TaskGateway {
        /** Asks every source task to snapshot and inject a barrier. */
        void triggerSources(long checkpointId, long timestamp, boolean savepoint);

        /** Tells every task that a checkpoint is complete. */
        void notifyComplete(long checkpointId);

        /**
         * Tells every task that a checkpoint was abandoned; called with the coordinator's lock held, so it must only
         * queue the notice. Default: nothing.
         */
        default void notifyAborted(long checkpointId) {}
    }

    private final CheckpointConfig config;
    private final CheckpointStorage storage;
    private final String jobName;
    private final int maxParallelism;
    private final int expectedAcks;
    private final Clock clock;
    private final TaskGateway gateway;
    private final List<CheckpointStats> stats = new ArrayList<>();
    private final Map<Long, CompletableFuture<CheckpointMetadata>> waiting = new HashMap<>();
    private final TreeMap<Long, PendingCheckpoint> pending = new TreeMap<>();
    private final ArrayDeque<Request> requested = new ArrayDeque<>();
    private boolean stopAfterSavepoint;
    private long lastId;
    private long lastCompletedId = -1;
    private long lastTriggerMillis = Long.MIN_VALUE / 2;
    private long lastCompletionMillis = Long.MIN_VALUE / 2;
    private long finalId = -1;
    private boolean stopped;
    private Thread trigger;
    private ControlRequests control;

    public CheckpointCoordinator(CheckpointConfig config, CheckpointStorage storage, String jobName, int maxParallelism,
            int expectedAcks, Clock clock, TaskGateway gateway, long restoredCheckpointId) {
        this.config = config;
        this.storage = storage;
        this.jobName = jobName;
        this.maxParallelism = maxParallelism;
        this.expectedAcks = expectedAcks;
        this.clock = clock;
        this.gateway = gateway;
        this.lastId = Math.max(0, restoredCheckpointId);
        this.lastCompletedId = restoredCheckpointId;
    }

    /** Makes the trigger thread look for requests in a control directory too; call before {@link #start()}. */
    public synchronized void watch(ControlRequests requests) {
        this.control = requests;
    }

    /** Starts periodic triggering on a daemon thread. */
    public synchronized void start() {
        lastTriggerMillis = clock.millis();
        trigger = new Thread(this::triggerLoop, "millrace-" + jobName + "-checkpoints");
        trigger.setDaemon(true);
        trigger.start();
    }

    /** Stops triggering; pending checkpoints are abandoned. Idempotent. */
    public void stop() {
        Thread t;
        synchronized (this) {
            stopped = true;
            t = trigger;
            for (CompletableFuture<CheckpointMetadata> f : waiting.values()) {
                f.completeExceptionally(new IllegalStateException("the job stopped before the checkpoint completed"));
            }
            waiting.clear();
            failRequested("the job stopped before the checkpoint started");
        }
        if (t != null && t != Thread.currentThread()) {
            LockSupport.unpark(t);
        }
    }

    private void triggerLoop() {
        ControlRequests requests;
        synchronized (this) {
            requests = control;
        }
        while (true) {
            synchronized (this) {
                if (stopped) {
                    return;
                }
                long now = clock.millis();
                abortTimedOut(now);
                if (pending.isEmpty() && !requested.isEmpty()) {
                    startRequested(now);
                } else if (pending.isEmpty() && finalId < 0 && config.periodic() && !stopAfterSavepoint
                        && now - lastTriggerMillis >= config.interval().toMillis()
                        && now - lastCompletionMillis >= config.minPause().toMillis()) {
                    startCheckpoint(now, false);
                }
            }
            if (requests != null) {
                requests.tick(); // outside this lock: it asks for savepoints through the job
            }
            LockSupport.parkNanos(this, TICK_NANOS);
        }
    }

    /**
     * Starts a checkpoint (a savepoint when asked) now, or as soon as the one in progress has ended; the
     * future completes with its metadata, or fails if it is abandoned or the job stops first.
     */
    public synchronized CompletableFuture<CheckpointMetadata> triggerNow(boolean savepoint) {
        return request(savepoint, false);
    }

    /**
     * Starts a savepoint like {@link #triggerNow} and starts no checkpoint after it: the caller stops the
     * job once it is complete. If the savepoint is abandoned, checkpoints resume as before.
     */
    public synchronized CompletableFuture<CheckpointMetadata> triggerSavepointBeforeStop() {
        return request(true, true);
    }

    private CompletableFuture<CheckpointMetadata> request(boolean savepoint, boolean thenStop) {
        if (stopped || finalId >= 0) {
            return CompletableFuture.failedFuture(new IllegalStateException("the job is ending: no more checkpoints"));
        }
        if (stopAfterSavepoint) {
            return CompletableFuture.failedFuture(new IllegalStateException("the job is stopping with a savepoint: no more checkpoints"));
        }
        CompletableFuture<CheckpointMetadata> f = new CompletableFuture<>();
        if (thenStop) {
            stopAfterSavepoint = true;
            f.whenComplete((m, e) -> {
                if (e != null) {
                    resumeAfterFailedStop();
                }
            });
        }
        requested.add(new Request(savepoint, f));
        if (pending.isEmpty()) {
            startRequested(clock.millis());
        }
        return f;
    }

    private synchronized void resumeAfterFailedStop() {
        stopAfterSavepoint = false;
    }

    private void startRequested(long now) {
        Request r = requested.poll();
        long id = startCheckpoint(now, r.savepoint);
        waiting.put(id, r.future);
    }

    private void failRequested(String why) {
        Request r;
        while ((r = requested.poll()) != null) {
            r.future.completeExceptionally(new IllegalStateException(why));
        }
    }

    private long startCheckpoint(long now, boolean savepoint) {
        long id = ++lastId;
        lastTriggerMillis = now;
        pending.put(id, new PendingCheckpoint(id, now, savepoint, expectedAcks));
        gateway.triggerSources(id, now, savepoint);
        return id;
    }

    /**
     * The id of the final checkpoint, reserved by the first task to reach the end of its input; every
     * later caller gets the same id. Periodic checkpoints stop and those in progress are abandoned, since
     * tasks that have ended can no longer take part in them.
     */
    public synchronized long reserveFinalCheckpoint() {
        if (finalId < 0) {
            for (PendingCheckpoint p : new ArrayList<>(pending.values())) {
                abort(p, "a task reached the end of its input");
            }
            failRequested("the job is ending: a task reached the end of its input");
            finalId = ++lastId;
            pending.put(finalId, new PendingCheckpoint(finalId, clock.millis(), false, expectedAcks));
        }
        return finalId;
    }

    /** A subtask's snapshot is written. Completes the checkpoint when it was the last one. */
    public void acknowledge(SubtaskAck ack) {
        CheckpointMetadata completed = null;
        synchronized (this) {
            PendingCheckpoint p = pending.get(ack.checkpointId());
            if (p == null || stopped) {
                return; // abandoned or superseded
            }
            if (!p.acknowledge(ack)) {
                return;
            }
            pending.remove(p.id);
            try {
                completed = complete(p);
            } catch (IOException | RuntimeException e) {
                LOG.warn("checkpoint {} of job '{}' could not be completed: {}", p.id, jobName, e.toString());
                stats.add(new CheckpointStats(p.id, CheckpointStats.Status.ABORTED, clock.millis() - p.triggeredAt, 0, 0, 0));
                CompletableFuture<CheckpointMetadata> f = waiting.remove(p.id);
                if (f != null) {
                    f.completeExceptionally(e);
                }
                gateway.notifyAborted(p.id);
                return;
            }
        }
        gateway.notifyComplete(completed.checkpointId());
    }

    private CheckpointMetadata complete(PendingCheckpoint p) throws IOException {
        Map<String, List<SubtaskAck.OperatorPart>> byOperator = new TreeMap<>();
        long bytes = 0;
        long maxAlign = 0;
        long maxSync = 0;
        for (SubtaskAck ack : p.acks()) {
            bytes += ack.bytes();
            maxAlign = Math.max(maxAlign, ack.alignmentNanos());
            maxSync = Math.max(maxSync, ack.syncNanos());
            for (SubtaskAck.OperatorPart part : ack.operators()) {
                byOperator.computeIfAbsent(part.operatorId(), k -> new ArrayList<>()).add(part);
            }
        }
        Map<String, CheckpointMetadata.OperatorSnapshot> operators = new HashMap<>();
        for (Map.Entry<String, List<SubtaskAck.OperatorPart>> e : byOperator.entrySet()) {
            List<SubtaskAck.OperatorPart> parts = e.getValue();
            parts.sort(java.util.Comparator.comparingInt(x -> x.snapshot().subtask()));
            List<CheckpointMetadata.SubtaskSnapshot> subtasks = new ArrayList<>();
            long watermark = Long.MAX_VALUE;
            for (SubtaskAck.OperatorPart part : parts) {
                subtasks.add(part.snapshot());
                watermark = Math.min(watermark, part.watermark());
            }
            SubtaskAck.OperatorPart first = parts.get(0);
            operators.put(e.getKey(), new CheckpointMetadata.OperatorSnapshot(e.getKey(), first.name(), first.parallelism(), subtasks, watermark));
        }
        CheckpointMetadata metadata = new CheckpointMetadata(p.id, p.triggeredAt, p.savepoint, jobName, maxParallelism, operators);
        storage.commit(metadata);
        long now = clock.millis();
        lastCompletedId = p.id;
        lastCompletionMillis = now;
        CheckpointStats s = new CheckpointStats(p.id, CheckpointStats.Status.COMPLETED, now - p.triggeredAt, bytes,
                maxAlign / 1_000_000, maxSync / 1_000);
        stats.add(s);
        LOG.info("job '{}': {}", jobName, s);
        if (!p.savepoint) {
            storage.retain(config.retained());
        }
        CompletableFuture<CheckpointMetadata> f = waiting.remove(p.id);
        if (f != null) {
            f.complete(metadata);
        }
        return metadata;
    }

    private void abortTimedOut(long now) {
        for (PendingCheckpoint p : new ArrayList<>(pending.values())) {
            if (p.id != finalId && now - p.triggeredAt > config.timeout().toMillis()) {
                abort(p, "it did not complete within " + config.timeout());
            }
        }
    }

    private void abort(PendingCheckpoint p, String why) {
        pending.remove(p.id);
        LOG.warn("job '{}': checkpoint {} abandoned: {}", jobName, p.id, why);
        stats.add(new CheckpointStats(p.id, CheckpointStats.Status.ABORTED, clock.millis() - p.triggeredAt, 0, 0, 0));
        CompletableFuture<CheckpointMetadata> f = waiting.remove(p.id);
        if (f != null) {
            f.completeExceptionally(new IllegalStateException("checkpoint " + p.id + " abandoned: " + why));
        }
        try {
            storage.discard(p.id);
        } catch (IOException e) {
            LOG.warn("could not delete the files of abandoned checkpoint {}: {}", p.id, e.toString());
        }
        gateway.notifyAborted(p.id);
    }

    /** The highest id this coordinator gave a checkpoint, started or not completed; a later attempt numbers after it. */
    public synchronized long lastTriggeredId() {
        return lastId;
    }

    public synchronized long lastCompletedId() {
        return lastCompletedId;
    }

    public synchronized List<CheckpointStats> stats() {
        return List.copyOf(stats);
    }

    /** A checkpoint asked for by a user, waiting for the one in progress to end. */
    private record Request(boolean savepoint, CompletableFuture<CheckpointMetadata> future) {}
}
