package io.millrace.runtime.timer;

import io.millrace.api.time.Clock;
import io.millrace.runtime.state.InternalTimerService;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.ReadAhead;
import io.millrace.runtime.state.Triggerable;
import java.util.function.Consumer;

/**
 * Heap timers of one named timer service: an event-time and a processing-time {@link TimerQueue}. The
 * registering methods act for the backend's current key. The backend drives firing through
 * {@link #fireNextEventTimer} and {@link #fireNextProcessingTimer}, setting the timer's key as current
 * key before calling the target. Task thread only.
 */
public final class HeapTimerService<N> implements InternalTimerService<N>, DueTimers.Service {
    private final String name;
    private final KeyedStateBackend keys;
    private final Clock clock;
    private final Triggerable<N> target;
    private final TimerQueue<N> eventTimers;
    private final TimerQueue<N> processingTimers;
    private long watermark = Long.MIN_VALUE;
    /**
     * Timers of each queue whose state was read ahead and that have not fired yet (about: a timer deleted
     * meanwhile still counts); at 0 the next firing reads the following {@link ReadAhead#BATCH} ahead.
     */
    private int eventAhead;
    private int processingAhead;

    public HeapTimerService(String name, KeyedStateBackend keys, Clock clock, Triggerable<N> target) {
        this.name = name;
        this.keys = keys;
        this.clock = clock;
        this.target = target;
        this.eventTimers = new TimerQueue<>(keys.keyGroupRange());
        this.processingTimers = new TimerQueue<>(keys.keyGroupRange());
    }

    public String name() {
        return name;
    }

    public Triggerable<N> target() {
        return target;
    }

    @Override
    public long currentWatermark() {
        return watermark;
    }

    /** Called by the backend as the watermark advances, before timers fire. */
    public void watermark(long watermark) {
        this.watermark = watermark;
    }

    @Override
    public long currentProcessingTime() {
        return clock.millis();
    }

    @Override
    public void registerEventTimeTimer(N namespace, long time) {
        eventTimers.add(requireKey(), keys.currentKeyGroup(), namespace, time);
    }

    @Override
    public void deleteEventTimeTimer(N namespace, long time) {
        eventTimers.remove(requireKey(), keys.currentKeyGroup(), namespace, time);
    }

    @Override
    public void registerProcessingTimeTimer(N namespace, long time) {
        processingTimers.add(requireKey(), keys.currentKeyGroup(), namespace, time);
    }

    @Override
    public void deleteProcessingTimeTimer(N namespace, long time) {
        processingTimers.remove(requireKey(), keys.currentKeyGroup(), namespace, time);
    }

    @Override
    public int size() {
        return eventTimers.size() + processingTimers.size();
    }

    @Override
    public int eventTimerCount() {
        return eventTimers.size();
    }

    @Override
    public int processingTimerCount() {
        return processingTimers.size();
    }

    /** Timestamp of the earliest event-time timer, Long.MAX_VALUE when none. */
    @Override
    public long nextEventTime() {
        return eventTimers.peekTimestamp();
    }

    /** Timestamp of the earliest processing-time timer, Long.MAX_VALUE when none. */
    @Override
    public long nextProcessingTime() {
        return processingTimers.peekTimestamp();
    }

    /**
     * Makes the earliest event-time timer's key current, removes the timer and fires it. There must be one.
     * The key is set before the timer is removed, so that the backend sees every change to a key group
     * (a pending snapshot captures the group first).
     */
    @Override
    public void fireNextEventTimer() throws Exception {
        eventAhead = eventAhead > 0 ? eventAhead - 1 : eventTimers.readAhead(ReadAhead.BATCH, keys) - 1;
        Timer<N> next = eventTimers.peek();
        keys.setCurrentKey(next.key(), next.keyGroup());
        Timer<N> t = eventTimers.poll();
        target.onEventTime(t.timestamp(), t.namespace());
    }

    /** Like {@link #fireNextEventTimer}, for the earliest processing-time timer. */
    @Override
    public void fireNextProcessingTimer() throws Exception {
        processingAhead = processingAhead > 0 ? processingAhead - 1 : processingTimers.readAhead(ReadAhead.BATCH, keys) - 1;
        Timer<N> next = processingTimers.peek();
        keys.setCurrentKey(next.key(), next.keyGroup());
        Timer<N> t = processingTimers.poll();
        target.onProcessingTime(t.timestamp(), t.namespace());
    }

    /** Visits both kinds of timers of one owned key group (for snapshots and rescaling). */
    public void forEachTimerInGroup(int keyGroup, Consumer<Timer<N>> eventTime, Consumer<Timer<N>> processingTime) {
        eventTimers.forEachInGroup(keyGroup, eventTime);
        processingTimers.forEachInGroup(keyGroup, processingTime);
    }

    /**
     * Adds a timer restored from a checkpoint for {@code key} in {@code keyGroup} (not the current key).
     * Restoring timers in their original registration order keeps the firing order of equal timestamps.
     */
    public void restoreTimer(Object key, int keyGroup, N namespace, long timestamp, boolean eventTime) {
        (eventTime ? eventTimers : processingTimers).add(key, keyGroup, namespace, timestamp);
    }

    private Object requireKey() {
        Object key = keys.currentKey();
        if (key == null) {
            throw new IllegalStateException(
                    "timer service '" + name + "' needs a current key: timers are only available while processing a keyed record or timer");
        }
        return key;
    }
}
