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

    public void bind(Thread thread) {
        this.owner = thread;
    }

    /** Called by producers and mail senders; cheap when the task is not waiting. */
    public void signal() {
        if (waiting) {
            signalled = true;
            Thread t = owner;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
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
