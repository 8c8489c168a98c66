package io.millrace.runtime.exchange;

import java.util.concurrent.locks.LockSupport;

/**
 * Wakes a parked task when something arrives for it (a batch, a mail, cancellation). The task calls
 * {@link #prepareWait}, re-checks its inputs, then {@link #await}; a signal in between is not lost.
 */
public final class TaskSignal {
    private volatile Thread owner;
    private volatile boolean waiting;
    private volatile boolean signalled;
    /** See {@link #wakeWatermark(long)}. */
    private volatile long wakeWatermark = Long.MIN_VALUE;
    private final java.util.concurrent.atomic.AtomicLong wakeups = new java.util.concurrent.atomic.AtomicLong();
    /** The channels into the task, registered while the job is wired (before any thread runs). */
    private Channel[] inputs = new Channel[0];

    public void bind(Thread thread) {
        this.owner = thread;
    }

    /** Called by producers and mail senders; cheap when the task is not waiting. */
    public void signal() {
        if (waiting) {
            signalled = true;
            wakeups.incrementAndGet();
            Thread t = owner;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    /** A channel into the task; called while the job is wired, before the threads start. */
    void addInput(Channel channel) {
        Channel[] grown = java.util.Arrays.copyOf(inputs, inputs.length + 1);
        grown[inputs.length] = channel;
        inputs = grown;
    }

    /**
     * Called by a producer that has just put a watermark alone in one of the task's channels: wakes a waiting task
     * only when the task's watermark (the lowest over its channels) can reach the one it published ({@link
     * #wakeWatermark(long)}): this watermark is at or above it and so is every other channel's last one (idle and
     * ended channels hold nothing back). So a producer ahead of the others does not wake the task for watermarks
     * the laggard still holds back; the producer whose watermark completes the crossing does. A watermark that did
     * not wake the task waits in the channel for its next wake-up. The channel's own last watermark is written
     * before this reads the others', so of two producers crossing at once at least one sees the other's.
     */
    public void signalWatermark(long watermark) {
        if (!waiting) {
            return;
        }
        long threshold = wakeWatermark;
        if (watermark < threshold) {
            return;
        }
        for (Channel c : inputs) {
            if (c.heldWatermark() < threshold) {
                return;
            }
        }
        signal();
    }

    /**
     * The task is about to wait: watermarks below {@code watermark} cannot make it do anything (its operators' and
     * consumers' answer), so producers need not wake it for them. Set before {@link #prepareWait}, so a producer that
     * sees the task waiting sees this too; {@code Long.MIN_VALUE} (the start) wakes it for every watermark.
     */
    public void wakeWatermark(long watermark) {
        wakeWatermark = watermark;
    }

    /** How many times a producer or mail woke the task from a wait (or found it about to wait); for metrics and tests. */
    public long wakeups() {
        return wakeups.get();
    }

    public void prepareWait() {
        signalled = false;
        waiting = true;
    }

    /** Parks at most {@code maxNanos} unless signalled since {@link #prepareWait}. */
    public void await(long maxNanos) {
        if (!signalled) {
            LockSupport.parkNanos(this, maxNanos);
        }
        waiting = false;
    }

    public void cancelWait() {
        waiting = false;
    }
}
