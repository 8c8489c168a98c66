package io.millrace.sim;

import java.util.Arrays;

/**
 * Generated events waiting for their emission time: a binary min-heap ordered by (emission time, slot),
 * kept in parallel arrays so that queuing an event allocates nothing. Used by one thread.
 */
final class PendingEvents {
    private long[] emitAt = new long[64];
    private long[] slot = new long[64];
    private FactoryEvent[] events = new FactoryEvent[64];
    private int size;

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** The emission time of the first event; the queue must not be empty. */
    long firstEmitAt() {
        return emitAt[0];
    }

    long firstSlot() {
        return slot[0];
    }

    void add(long time, long slotIndex, FactoryEvent event) {
        if (size == events.length) {
            emitAt = Arrays.copyOf(emitAt, size * 2);
            slot = Arrays.copyOf(slot, size * 2);
            events = Arrays.copyOf(events, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(time, slotIndex, emitAt[parent], slot[parent])) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        set(i, time, slotIndex, event);
    }

    /** Removes and returns the first event; the queue must not be empty. */
    FactoryEvent poll() {
        FactoryEvent first = events[0];
        int last = --size;
        long t = emitAt[last];
        long s = slot[last];
        FactoryEvent e = events[last];
        events[last] = null;
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(emitAt[child + 1], slot[child + 1], emitAt[child], slot[child])) {
                child++;
            }
            if (!before(emitAt[child], slot[child], t, s)) {
                break;
            }
            move(child, i);
            i = child;
        }
        if (size > 0) {
            set(i, t, s, e);
        }
        return first;
    }

    void clear() {
        Arrays.fill(events, 0, size, null);
        size = 0;
    }

    private static boolean before(long t1, long s1, long t2, long s2) {
        return t1 < t2 || (t1 == t2 && s1 < s2);
    }

    private void move(int from, int to) {
        set(to, emitAt[from], slot[from], events[from]);
    }

    private void set(int i, long t, long s, FactoryEvent e) {
        emitAt[i] = t;
        slot[i] = s;
        events[i] = e;
    }
}
