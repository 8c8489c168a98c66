package io.millrace.runtime.source;

import io.millrace.runtime.exchange.TaskSignal;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The shared watermark board of one alignment group in one run of a job: every source subtask of the group has a
 * slot, publishes the watermark it emitted after each poll, and before each poll asks whether it is too far ahead
 * of the lowest. One that is waits, and the member whose watermark lets it go on wakes it.
 *
 * <p>A slot holds {@link Long#MIN_VALUE} until its subtask has emitted a watermark and {@link Long#MAX_VALUE} while
 * the subtask is idle or after it ended; neither counts toward the lowest, so a partition with no data yet, a
 * quiet one and a finished one never stop the others. Slots are assigned while the job is wired, before any task
 * thread runs; a slot is written only by its own subtask's thread.
 */
public final class WatermarkAlignment {
    /** Slot value of a subtask that is idle or ended: left out of the lowest. */
    public static final long OUT = Long.MAX_VALUE;
    private static final long NOT_WAITING = Long.MAX_VALUE;

    private final String group;
    private final AtomicLongArray watermarks;
    /** Per slot: the lowest watermark of the group that lets its waiting subtask go on, or {@link #NOT_WAITING}. */
    private final AtomicLongArray resumeAt;
    private final TaskSignal[] signals;
    private final AtomicInteger waiting = new AtomicInteger();
    private int registered;

    public WatermarkAlignment(String group, int members) {
        this.group = group;
        this.watermarks = new AtomicLongArray(members);
        this.resumeAt = new AtomicLongArray(members);
        this.signals = new TaskSignal[members];
        for (int i = 0; i < members; i++) {
            watermarks.set(i, Long.MIN_VALUE);
            resumeAt.set(i, NOT_WAITING);
        }
    }

    /** Gives a source subtask its slot; while the job is wired, before its threads start. */
    public int register(TaskSignal signal) {
        if (registered == signals.length) {
            throw new IllegalStateException("alignment group '" + group + "' has only " + signals.length + " slots");
        }
        signals[registered] = signal;
        return registered++;
    }

    /** Publishes the watermark of {@code member} ({@link #OUT} while idle or ended); wakes a waiting member it lets go on. */
    public void publish(int member, long watermark) {
        if (watermarks.getPlain(member) == watermark) {
            return; // only the member's own thread writes its slot
        }
        watermarks.set(member, watermark);
        if (waiting.get() > 0) {
            wakeThoseCaughtUp();
        }
    }

    /** The lowest watermark of the group's members that count (not before their first watermark, not idle, not ended); {@code Long.MAX_VALUE} if none. */
    public long lowest() {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < signals.length; i++) {
            long w = watermarks.get(i);
            if (w != Long.MIN_VALUE && w < min) {
                min = w;
            }
        }
        return min;
    }

    /** Whether {@code watermark} is more than {@code maxDrift} ahead of the lowest in the group. */
    public boolean ahead(long watermark, long maxDrift) {
        long min = lowest();
        return watermark > min && min <= Long.MAX_VALUE - maxDrift && watermark > min + maxDrift;
    }

    /**
     * {@code member}, whose watermark is more than {@code maxDrift} ahead, is about to wait: the member whose published
     * watermark brings the lowest to within {@code maxDrift} of it signals it. Call {@link #doneWaiting} after the wait.
     */
    public void waitUntilCaughtUp(int member, long watermark, long maxDrift) {
        resumeAt.set(member, watermark - maxDrift);
        waiting.incrementAndGet();
    }

    public void doneWaiting(int member) {
        resumeAt.set(member, NOT_WAITING);
        waiting.decrementAndGet();
    }

    private void wakeThoseCaughtUp() {
        long min = lowest();
        for (int i = 0; i < signals.length; i++) {
            long at = resumeAt.get(i);
            if (at != NOT_WAITING && min >= at && resumeAt.compareAndSet(i, at, NOT_WAITING)) {
                signals[i].signal();
            }
        }
    }
}
