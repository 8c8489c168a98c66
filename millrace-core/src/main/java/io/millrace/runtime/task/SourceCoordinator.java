package io.millrace.runtime.task;

import io.millrace.api.source.SourceSplit;
import io.millrace.api.source.SplitEnumerator;
import io.millrace.api.source.SplitEnumeratorContext;
import io.millrace.api.time.Clock;
import io.millrace.runtime.checkpoint.VersionedBytes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs the split enumerators of one job attempt: starts them, calls their discovery at its interval on one
 * coordinator thread, and takes their state for each checkpoint. Every call into an enumerator holds this object's
 * lock, so an enumerator sees one call at a time.
 *
 * <p>Why the state agrees with the readers': the trigger of a checkpoint takes every enumerator's state and posts it,
 * and then the checkpoint's triggers, to the source tasks while holding the lock, and assignments are posted under
 * the same lock. A task's mails run in order, so a split assigned before the enumerator's snapshot reaches its reader
 * before the reader snapshots, and one assigned after reaches it after. The state goes to subtask 0 of its source,
 * which stores it with its splits.
 *
 * <pre>
 *   CREATED ─► (enumerators started while the job is wired) ─► RUNNING (discovery scheduled) ─► CLOSED
 * </pre>
 */
public final class SourceCoordinator implements AutoCloseable {
    private final List<Enumerated> sources = new ArrayList<>();
    private ScheduledExecutorService discovery;
    private boolean closed;

    /** One source with an enumerator, and the tasks of its subtasks. */
    private final class Enumerated implements SplitEnumeratorContext<SourceSplit> {
        final String name;
        final SourceTask[] tasks;
        final Clock clock;
        SplitEnumerator<SourceSplit> enumerator;

        Enumerated(String name, SourceTask[] tasks, Clock clock) {
            this.name = name;
            this.tasks = tasks;
            this.clock = clock;
        }

        @Override
        public int parallelism() {
            return tasks.length;
        }

        @Override
        public String sourceName() {
            return name;
        }

        @Override
        public Clock clock() {
            return clock;
        }

        @Override
        public void assignSplits(int subtask, List<SourceSplit> splits) {
            if (!splits.isEmpty()) {
                task(subtask).assignSplits(List.copyOf(splits));
            }
        }

        @Override
        public void removeSplits(int subtask, List<String> splitIds) {
            if (!splitIds.isEmpty()) {
                task(subtask).removeSplits(List.copyOf(splitIds));
            }
        }

        @Override
        public void noMoreSplits(int subtask) {
            task(subtask).noMoreSplits();
        }

        private SourceTask task(int subtask) {
            if (subtask < 0 || subtask >= tasks.length) {
                throw new IllegalArgumentException("source '" + name + "' has subtasks 0 to " + (tasks.length - 1) + ", not " + subtask);
            }
            return tasks[subtask];
        }
    }

    /** The context an enumerator of source {@code name} is created with; {@link #register} it once created. */
    SplitEnumeratorContext<SourceSplit> context(String name, SourceTask[] tasks, Clock clock) {
        Enumerated e = new Enumerated(name, tasks, clock);
        return e;
    }

    /** Adds a created enumerator and starts it (it assigns its first splits). */
    synchronized void register(SplitEnumeratorContext<SourceSplit> context, SplitEnumerator<SourceSplit> enumerator) throws Exception {
        Enumerated e = (Enumerated) context;
        e.enumerator = enumerator;
        sources.add(e);
        try {
            enumerator.start();
        } catch (Exception | Error ex) {
            close();
            throw ex;
        }
    }

    /** Schedules every enumerator's discovery; a failing discovery is reported to {@code failed} (the job fails). */
    public synchronized void start(String jobName, Consumer<Throwable> failed) {
        for (Enumerated e : sources) {
            long interval = e.enumerator.discoveryIntervalMillis();
            if (interval <= 0) {
                continue;
            }
            if (discovery == null) {
                discovery = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "millrace-" + jobName + "-split-discovery");
                    t.setDaemon(true);
                    return t;
                });
            }
            discovery.scheduleWithFixedDelay(() -> discover(e, failed), interval, interval, TimeUnit.MILLISECONDS);
        }
    }

    private void discover(Enumerated e, Consumer<Throwable> failed) {
        synchronized (this) {
            if (closed) {
                return;
            }
            try {
                e.enumerator.discover();
            } catch (Throwable t) {
                failed.accept(new IllegalStateException("source '" + e.name + "': split discovery failed: " + t, t));
            }
        }
    }

    /**
     * Takes every enumerator's state for checkpoint {@code checkpointId}, posts it to subtask 0 of its source, then
     * runs {@code trigger} (which posts the checkpoint to the source tasks), all under the lock.
     */
    public synchronized void triggerCheckpoint(long checkpointId, Runnable trigger) throws Exception {
        for (Enumerated e : sources) {
            byte[] state = e.enumerator.snapshotState(checkpointId);
            e.tasks[0].enumeratorState(checkpointId, new VersionedBytes(VersionedBytes.ENUMERATOR, e.enumerator.stateVersion(), state));
        }
        trigger.run();
    }

    public synchronized void notifyCheckpointComplete(long checkpointId) throws Exception {
        for (Enumerated e : sources) {
            e.enumerator.notifyCheckpointComplete(checkpointId);
        }
    }

    /** Stops discovery and closes the enumerators. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (discovery != null) {
            discovery.shutdownNow();
        }
        for (Enumerated e : sources) {
            try {
                e.enumerator.close();
            } catch (Exception ex) {
                org.slf4j.LoggerFactory.getLogger(SourceCoordinator.class).warn("source '{}': closing its enumerator failed: {}", e.name, ex.toString());
            }
        }
    }
}
