package io.millrace.runtime.task;

import io.millrace.api.metrics.TaskMetrics;
import io.millrace.api.time.Clock;
import io.millrace.runtime.checkpoint.TaskCheckpointing;
import io.millrace.runtime.exchange.ControlElement;
import io.millrace.runtime.exchange.RecordWriter;
import io.millrace.runtime.exchange.TaskCancelledException;
import io.millrace.runtime.exchange.TaskSignal;
import io.millrace.runtime.operator.CheckpointListener;
import io.millrace.runtime.operator.EmitPoint;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.KeyedStateSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;

/**
 * One subtask of a chain of operators, run by one thread. The thread owns every operator of the chain;
 * other threads talk to it only through its mailbox ({@link #post}) and its channels.
 *
 * <pre>
 *   CREATED ─► RUNNING ─► FINISHED      (all input consumed, end of input sent downstream)
 *                  └────► FAILED        (an exception; the job is told and cancels the others)
 *                  └────► CANCELLED     (the job was cancelled)
 * </pre>
 */
public abstract class Task implements Runnable {
    /** Lifecycle of a task. */
    public enum State { CREATED, RUNNING, FINISHED, FAILED, CANCELLED }

    protected final String name;
    protected final int subtask;
    protected final Clock clock;
    protected final TaskSignal signal;
    protected final TaskHost host;
    protected final List<ChainMember> chain = new ArrayList<>();
    protected final List<RecordWriter> writers = new ArrayList<>();
    private final List<CheckpointListener> checkpointListeners = new ArrayList<>();
    private volatile long lastCompletedCheckpoint = -1;
    private final ConcurrentLinkedQueue<Runnable> mailbox = new ConcurrentLinkedQueue<>();
    /** The mailboxes of the chain's operators, in chain order; complete before the task runs. */
    private final List<OperatorMailbox> operatorMailboxes = new ArrayList<>();
    private volatile Thread thread;
    private final long bufferTimeoutNanos;
    private volatile State state = State.CREATED;
    private long lastProcessingTime = Long.MIN_VALUE;
    private long lastFlushNanos;
    private boolean publishedIdle;
    private long startNanos;
    protected volatile long idleNanos;
    protected volatile long sourcePauses;
    protected long pausedNanos;
    protected volatile long alignmentPauses;
    protected volatile long alignedNanos;

    protected Task(String name, int subtask, Clock clock, TaskSignal signal, TaskHost host, long bufferTimeoutNanos) {
        this.name = name;
        this.subtask = subtask;
        this.clock = clock;
        this.signal = signal;
        this.host = host;
        this.bufferTimeoutNanos = bufferTimeoutNanos;
    }

    void addMember(ChainMember member) {
        chain.add(member);
        if (member.context() instanceof OperatorContextImpl ctx) {
            ctx.mailbox().bind(member.operator());
        }
        if (member.operator() instanceof CheckpointListener listener) {
            checkpointListeners.add(listener);
        }
    }

    /** A listener besides the chain's operators (a source task's reader); before the task runs. */
    void addCheckpointListener(CheckpointListener listener) {
        checkpointListeners.add(listener);
    }

    /** Loads state from a checkpoint; runs on the task thread before the operators open. */
    @FunctionalInterface
    interface StateRestore {
        void restore() throws Exception;
    }

    private final List<StateRestore> restores = new ArrayList<>();

    void addRestore(StateRestore restore) {
        restores.add(restore);
    }

    void addWriter(RecordWriter writer) {
        writers.add(writer);
    }

    public String name() {
        return name;
    }

    public int subtask() {
        return subtask;
    }

    public State state() {
        return state;
    }

    /** The newest checkpoint whose completion this task's operators have been told of, or -1. Any thread. */
    public long lastCompletedCheckpoint() {
        return lastCompletedCheckpoint;
    }

    /** Queues an action for the task thread; it runs between batches. Thread-safe. */
    public void post(Runnable mail) {
        mailbox.add(mail);
        signal.signal();
    }

    /**
     * A new mailbox for the next operator of the chain (in chain order, while the job is wired, before the task runs);
     * see {@link OperatorMailbox}.
     */
    OperatorMailbox operatorMailbox() {
        OperatorMailbox box = new OperatorMailbox(this, operatorMailboxes.size());
        operatorMailboxes.add(box);
        return box;
    }

    /** Wakes the task thread for a mail just queued in an operator's mailbox. */
    final void mailQueued() {
        signal.signal();
    }

    /**
     * Runs the mails of {@code from}'s operator and of the operators after it in the chain, and {@code from}'s
     * processing-time callback when the clock moves, until {@code done} holds; parks while there is nothing to run.
     * Input is not read meanwhile, and mails of the task and of operators before {@code from} wait: they could call
     * into an operator that is in the middle of a call. Throws {@link TaskCancelledException} when the job is
     * cancelled; a failing mail fails the caller. Task thread only.
     */
    final void runMailsUntil(OperatorMailbox from, BooleanSupplier done) throws Exception {
        if (Thread.currentThread() != thread) {
            throw new IllegalStateException("task " + this + ": mails can only be waited for on the task's own thread, not on "
                    + Thread.currentThread().getName());
        }
        long lastNow = Long.MIN_VALUE;
        while (!done.getAsBoolean()) {
            if (host.cancelled()) {
                throw new TaskCancelledException();
            }
            if (runOneMail(from.position())) {
                continue;
            }
            long now = clock.millis();
            if (now != lastNow && from.operator() != null) {
                lastNow = now;
                from.operator().advanceProcessingTime(now);
                continue;
            }
            long start = clock.nanoTime();
            signal.prepareWait();
            if (hasOperatorMail(from.position()) || host.cancelled()) {
                signal.cancelWait();
                continue;
            }
            signal.await(YIELD_PARK_NANOS);
            idleNanos += clock.nanoTime() - start;
        }
    }

    /** How long a task waiting for mails parks at most before it looks at the clock again. */
    private static final long YIELD_PARK_NANOS = 1_000_000L;

    private boolean runOneMail(int fromPosition) {
        for (int i = fromPosition; i < operatorMailboxes.size(); i++) {
            Runnable mail = operatorMailboxes.get(i).poll();
            if (mail != null) {
                mail.run();
                return true;
            }
        }
        return false;
    }

    private boolean hasOperatorMail(int fromPosition) {
        for (int i = fromPosition; i < operatorMailboxes.size(); i++) {
            if (operatorMailboxes.get(i).hasMail()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public final void run() {
        signal.bind(Thread.currentThread());
        thread = Thread.currentThread();
        state = State.RUNNING;
        try {
            for (StateRestore r : restores) {
                r.restore();
            }
            restores.clear();
            for (ChainMember m : chain) {
                m.operator().open(m.context(), m.output());
            }
            startNanos = clock.nanoTime();
            lastFlushNanos = startNanos;
            runLoop();
            state = host.cancelled() ? State.CANCELLED : State.FINISHED;
        } catch (TaskCancelledException e) {
            state = State.CANCELLED;
        } catch (Throwable t) {
            if (host.cancelled()) {
                state = State.CANCELLED;
            } else {
                state = State.FAILED;
                host.taskFailed(this, t);
            }
        } finally {
            closeChain();
            host.taskFinished(this);
        }
    }

    /** Processes input until it ends or the job is cancelled. */
    protected abstract void runLoop() throws Exception;

    /** Runs queued mails (the task's, then each operator's in chain order) and, when the clock moved, processing-time callbacks. */
    protected final void runMailsAndTimers() throws Exception {
        Runnable mail;
        while ((mail = mailbox.poll()) != null) {
            mail.run();
        }
        while (runOneMail(0)) {
            // until every operator mailbox is empty
        }
        long now = clock.millis();
        if (now != lastProcessingTime) {
            lastProcessingTime = now;
            for (ChainMember m : chain) {
                m.operator().advanceProcessingTime(now);
            }
        }
    }

    protected final boolean hasMail() {
        return !mailbox.isEmpty() || hasOperatorMail(0);
    }

    /** Sends partial batches if the oldest has waited longer than the buffer timeout. */
    protected final void flushIfDue() throws Exception {
        flushIfDue(clock.nanoTime());
    }

    /** As {@link #flushIfDue()}, with the clock's nanoseconds already read. */
    protected final void flushIfDue(long now) throws Exception {
        if (now - lastFlushNanos >= bufferTimeoutNanos) {
            flushAll();
        }
    }

    /**
     * The task ran out of input and will wait: the chain sends what it holds back ({@link
     * EmitPoint#WAITING_FOR_INPUT}), then every partial batch goes out. Returns the
     * longest the task may wait: until a watermark still held back is due ({@link RecordWriter#flushBeforeWaiting}),
     * {@code Long.MAX_VALUE} when none is.
     */
    protected final long beforeWaiting() throws Exception {
        emitHeldBack(EmitPoint.WAITING_FOR_INPUT);
        long now = clock.nanoTime();
        lastFlushNanos = now;
        long due = Long.MAX_VALUE;
        for (RecordWriter w : writers) {
            due = Math.min(due, w.flushBeforeWaiting(now));
        }
        return due;
    }

    /**
     * A watermark is about to pass through the chain: records the writers receive before it were released by it
     * and are waited for downstream, so the writers send it at once ({@link RecordWriter#watermarkStarts}).
     */
    protected final void watermarkStarts() {
        for (RecordWriter w : writers) {
            w.watermarkStarts();
        }
    }

    /**
     * Sends every partial batch, after the chain had its say ({@link EmitPoint#OUTPUT_FLUSH}: sinks make their
     * output visible); done when the buffer timeout passed and at the end of the input.
     */
    protected final void flushAll() throws Exception {
        emitHeldBack(EmitPoint.OUTPUT_FLUSH);
        lastFlushNanos = clock.nanoTime();
        for (RecordWriter w : writers) {
            w.flush();
        }
    }

    /** Asks every operator of the chain, head first, to send what it holds back at {@code point}. */
    private void emitHeldBack(EmitPoint point) throws Exception {
        for (ChainMember m : chain) {
            m.operator().emitHeldBack(point);
        }
    }

    protected final boolean writersWritable() {
        for (RecordWriter w : writers) {
            if (!w.writable()) {
                return false;
            }
        }
        return true;
    }

    /** Tells consumers whether this subtask is idle, when that changed; before turning idle, the chain emits what it holds back. */
    protected final void publishIdle(boolean idle) throws Exception {
        if (idle != publishedIdle) {
            if (idle) {
                emitHeldBack(EmitPoint.IDLE);
            }
            publishedIdle = idle;
            ControlElement status = idle ? ControlElement.IdleStatus.IDLE : ControlElement.IdleStatus.ACTIVE;
            for (RecordWriter w : writers) {
                w.broadcastControl(status);
            }
        }
    }

    /**
     * All input is consumed: let every operator finish in chain order, take this subtask's part of the
     * final checkpoint (when checkpointing is on), then end the outputs. A task with a {@link CheckpointListener}
     * in its chain then stays until the final checkpoint is complete and the listeners were told (an exactly-once
     * sink commits then).
     */
    protected final void endOfInput() throws Exception {
        for (ChainMember m : chain) {
            m.operator().endInput();
        }
        long finalCheckpoint = -1;
        TaskCheckpointing cp = host.checkpointing();
        if (cp != null) {
            finalCheckpoint = cp.coordinator().reserveFinalCheckpoint();
            snapshot(finalCheckpoint, false, false, 0);
        }
        for (RecordWriter w : writers) {
            w.broadcastControl(ControlElement.EndOfInput.INSTANCE);
        }
        flushAll();
        if (finalCheckpoint >= 0 && !checkpointListeners.isEmpty()) {
            awaitCompletion(finalCheckpoint);
        }
    }

    private void awaitCompletion(long checkpointId) throws Exception {
        while (lastCompletedCheckpoint < checkpointId && !host.cancelled()) {
            runMailsAndTimers();
            if (lastCompletedCheckpoint < checkpointId) {
                idleWait(5_000_000L);
            }
        }
    }

    /** Runs on the task thread, as a mail from the coordinator. */
    final void checkpointComplete(long checkpointId) throws Exception {
        if (checkpointId <= lastCompletedCheckpoint) {
            return;
        }
        for (CheckpointListener listener : checkpointListeners) {
            listener.notifyCheckpointComplete(checkpointId);
        }
        lastCompletedCheckpoint = checkpointId; // after the listeners committed: stop-with-savepoint waits for this
    }

    /** Sends a completion notice to this task; safe from any thread. */
    public void notifyCheckpointComplete(long checkpointId) {
        post(() -> {
            try {
                checkpointComplete(checkpointId);
            } catch (Exception e) {
                throw new CheckpointFailure("task " + this + " failed to finish checkpoint " + checkpointId, e);
            }
        });
    }

    /** Runs on the task thread, as a mail from the coordinator; a notice older than a completion is dropped. */
    final void checkpointAborted(long checkpointId) throws Exception {
        if (checkpointId <= lastCompletedCheckpoint) {
            return;
        }
        for (CheckpointListener listener : checkpointListeners) {
            listener.notifyCheckpointAborted(checkpointId);
        }
    }

    /** Tells this task that a checkpoint was abandoned; safe from any thread. */
    public void notifyCheckpointAborted(long checkpointId) {
        post(() -> {
            try {
                checkpointAborted(checkpointId);
            } catch (Exception e) {
                throw new CheckpointFailure("task " + this + " failed on the abort of checkpoint " + checkpointId, e);
            }
        });
    }

    /**
     * The synchronous part of a checkpoint: lets every operator of the chain emit what it holds back
     * ({@link EmitPoint#CHECKPOINT_BARRIER}, head first), captures the
     * state of every operator (and, in a source task, the reader's split positions), then sends the barrier downstream; the state files
     * are written on the checkpoint writer thread, which then acknowledges to the coordinator. A savepoint
     * asks the keyed state backends for full, self-contained snapshots.
     */
    protected final void snapshot(long checkpointId, boolean savepoint, boolean sendBarrier, long alignmentNanos) throws Exception {
        TaskCheckpointing cp = host.checkpointing();
        long start = clock.nanoTime();
        emitHeldBack(EmitPoint.CHECKPOINT_BARRIER);
        List<SnapshotWriter.Captured> captured = new ArrayList<>();
        try {
            captureSourceState(checkpointId, captured);
            for (ChainMember m : chain) {
                KeyedStateBackend backend = m.context().keyedStateBackend();
                KeyedStateSnapshot keyed = backend == null ? null : backend.snapshot(checkpointId, savepoint);
                List<? extends java.io.Serializable> items;
                try {
                    items = m.operator().snapshotOperatorState(checkpointId);
                } catch (Exception | Error e) {
                    if (keyed != null) {
                        keyed.release();
                    }
                    throw e;
                }
                captured.add(new SnapshotWriter.Captured(m.operatorId(), m.context().operatorName(), m.context().parallelism(), subtask,
                        backend == null ? null : backend.keyGroupRange(), keyed, items, inputWatermark()));
            }
        } catch (Exception | Error e) {
            SnapshotWriter.release(captured);
            throw e;
        }
        long syncNanos = clock.nanoTime() - start;
        if (sendBarrier) {
            ControlElement.CheckpointBarrier barrier = new ControlElement.CheckpointBarrier(checkpointId, clock.millis(), savepoint);
            for (RecordWriter w : writers) {
                w.broadcastControl(barrier);
            }
        }
        Runnable write = () -> {
            try {
                cp.coordinator().acknowledge(SnapshotWriter.write(cp.storage(), checkpointId, captured, syncNanos, alignmentNanos));
            } catch (java.io.IOException | RuntimeException e) {
                // the checkpoint cannot complete; it is abandoned at its timeout, the job goes on
                org.slf4j.LoggerFactory.getLogger(Task.class).warn("task {}: writing checkpoint {} failed: {}", this, checkpointId, e.toString());
            }
        };
        try {
            cp.asyncWriter().execute(write);
        } catch (RuntimeException e) {
            SnapshotWriter.release(captured);
            throw e;
        }
    }

    /** The watermark the chain's head has been given so far ({@code Long.MIN_VALUE}: none). */
    protected abstract long inputWatermark();

    /** A source task adds its reader's positions. Default: nothing. */
    protected void captureSourceState(long checkpointId, List<SnapshotWriter.Captured> captured) throws Exception {}

    /** Parks until signalled or {@code maxNanos} pass, counting the time as idle. */
    protected final void idleWait(long maxNanos) {
        long start = clock.nanoTime();
        signal.prepareWait();
        if (hasMail() || host.cancelled() || inputAvailable()) {
            signal.cancelWait();
            return;
        }
        signal.await(maxNanos);
        idleNanos += clock.nanoTime() - start;
    }

    /** Whether input arrived that the loop has not seen. */
    protected abstract boolean inputAvailable();

    private void closeChain() {
        for (ChainMember m : chain) {
            try {
                m.operator().close();
            } catch (Throwable t) {
                if (state == State.FINISHED) {
                    state = State.FAILED;
                    host.taskFailed(this, t);
                }
            }
        }
    }

    public TaskMetrics metrics() {
        long bp = pausedNanos;
        long pauses = sourcePauses;
        for (RecordWriter w : writers) {
            bp += w.backpressuredNanos();
            if (this instanceof SourceTask) {
                pauses += w.blockedCount();
            }
        }
        long elapsed = startNanos == 0 ? 0 : clock.nanoTime() - startNanos;
        long busy = Math.max(0, elapsed - bp - idleNanos);
        return new TaskMetrics(name, subtask, busy, bp, idleNanos, pauses, signal.wakeups(), alignmentPauses, alignedNanos);
    }

    @Override
    public String toString() {
        return name + " (" + (subtask + 1) + ")";
    }
}
