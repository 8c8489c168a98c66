package io.millrace.runtime.task;

import io.millrace.api.metrics.TaskMetrics;
import io.millrace.api.time.Clock;
import io.millrace.runtime.exchange.ControlElement;
import io.millrace.runtime.exchange.RecordWriter;
import io.millrace.runtime.exchange.TaskCancelledException;
import io.millrace.runtime.exchange.TaskSignal;
import io.millrace.runtime.operator.SinkOperator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

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
    private final List<SinkOperator<?>> sinks = new ArrayList<>();
    private final ConcurrentLinkedQueue<Runnable> mailbox = new ConcurrentLinkedQueue<>();
    private final long bufferTimeoutNanos;
    private volatile State state = State.CREATED;
    private long lastProcessingTime = Long.MIN_VALUE;
    private long lastFlushNanos;
    private boolean publishedIdle;
    private long startNanos;
    protected volatile long idleNanos;
    protected volatile long sourcePauses;
    protected long pausedNanos;

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
        Object op = member.operator();
        if (op instanceof SinkOperator<?> s) {
            sinks.add(s);
        }
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

    /** Queues an action for the task thread; it runs between batches. Thread-safe. */
    public void post(Runnable mail) {
        mailbox.add(mail);
        signal.signal();
    }

    @Override
    public final void run() {
        signal.bind(Thread.currentThread());
        state = State.RUNNING;
        try {
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

    /** Runs queued mails and, when the clock moved, processing-time callbacks. */
    protected final void runMailsAndTimers() throws Exception {
        Runnable mail;
        while ((mail = mailbox.poll()) != null) {
            mail.run();
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
        return !mailbox.isEmpty();
    }

    /** Sends partial batches if the oldest has waited longer than the buffer timeout. */
    protected final void flushIfDue() throws Exception {
        long now = clock.nanoTime();
        if (now - lastFlushNanos >= bufferTimeoutNanos) {
            flushAll();
        }
    }

    /** Sends every partial batch and makes sink output visible; done whenever the task runs dry. */
    protected final void flushAll() throws Exception {
        lastFlushNanos = clock.nanoTime();
        for (RecordWriter w : writers) {
            w.flush();
        }
        for (SinkOperator<?> s : sinks) {
            s.flushIdle();
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

    /** Tells consumers whether this subtask is idle, when that changed. */
    protected final void publishIdle(boolean idle) {
        if (idle != publishedIdle) {
            publishedIdle = idle;
            ControlElement status = idle ? ControlElement.IdleStatus.IDLE : ControlElement.IdleStatus.ACTIVE;
            for (RecordWriter w : writers) {
                w.broadcastControl(status);
            }
        }
    }

    /** All input is consumed: let every operator finish in chain order, then end the outputs. */
    protected final void endOfInput() throws Exception {
        for (ChainMember m : chain) {
            m.operator().endInput();
        }
        for (RecordWriter w : writers) {
            w.broadcastControl(ControlElement.EndOfInput.INSTANCE);
        }
    }

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
        return new TaskMetrics(name, subtask, busy, bp, idleNanos, pauses);
    }

    public List<RecordWriter> writers() {
        return writers;
    }

    @Override
    public String toString() {
        return name + " (" + (subtask + 1) + ")";
    }
}
