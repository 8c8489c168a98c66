package io.millrace.runtime.timer;

import io.millrace.runtime.state.ReadAhead;
import java.util.function.Consumer;

/**
 * The timers of one key group in a {@link TimerQueue}: a chained hash set through the timers themselves
 * (no node per entry), for deduplication, deletion and per-group snapshots. Only changes of this group touch
 * it, so a snapshot may visit it from another thread while the task thread leaves the group alone. Task
 * thread only otherwise.
 */
final class GroupTimers<N> {
    private static final int MIN_SLOTS = 8;

    @SuppressWarnings("unchecked")
    private Timer<N>[] slots = new Timer[0];
    private int size;

    int size() {
        return size;
    }

    /** The stored timer equal to {@code probe}, or null. */
    Timer<N> find(Timer<N> probe) {
        Timer<N>[] s = slots;
        if (s.length == 0) {
            return null;
        }
        for (Timer<N> t = s[index(probe.hashCode(), s.length)]; t != null; t = t.groupNext) {
            if (t.equals(probe)) {
                return t;
            }
        }
        return null;
    }

    /** Reads ahead ({@link ReadAhead}) the slot where {@link #remove} will look for a timer of hash {@code hash}; returns 0. */
    int readAhead(int hash) {
        Timer<N>[] s = slots;
        return s.length == 0 ? 0 : ReadAhead.header(s[index(hash, s.length)]);
    }

    /** Adds a timer that has no equal here. */
    void add(Timer<N> t) {
        if (size >= slots.length - (slots.length >>> 2)) {
            resize(Math.max(MIN_SLOTS, slots.length * 2));
        }
        int i = index(t.hashCode(), slots.length);
        t.groupNext = slots[i];
        slots[i] = t;
        size++;
    }

    /** Removes a timer stored here (the instance itself). */
    void remove(Timer<N> t) {
        int i = index(t.hashCode(), slots.length);
        Timer<N> prev = null;
        for (Timer<N> e = slots[i]; e != null; prev = e, e = e.groupNext) {
            if (e == t) {
                if (prev == null) {
                    slots[i] = e.groupNext;
                } else {
                    prev.groupNext = e.groupNext;
                }
                e.groupNext = null;
                size--;
                if (size == 0) {
                    slots = emptySlots();
                }
                return;
            }
        }
    }

    void forEach(Consumer<Timer<N>> action) {
        for (Timer<N> head : slots) {
            for (Timer<N> t = head; t != null; t = t.groupNext) {
                action.accept(t);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <N> Timer<N>[] emptySlots() {
        return new Timer[0];
    }

    @SuppressWarnings("unchecked")
    private void resize(int capacity) {
        Timer<N>[] fresh = new Timer[capacity];
        for (Timer<N> head : slots) {
            Timer<N> t = head;
            while (t != null) {
                Timer<N> next = t.groupNext;
                int i = index(t.hashCode(), capacity);
                t.groupNext = fresh[i];
                fresh[i] = t;
                t = next;
            }
        }
        slots = fresh;
    }

    private static int index(int hash, int capacity) {
        return (hash * 0x9E3779B9) >>> (32 - Integer.numberOfTrailingZeros(capacity));
    }
}
