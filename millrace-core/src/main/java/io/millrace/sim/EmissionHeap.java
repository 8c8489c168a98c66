package io.millrace.sim;

import java.util.Arrays;

/**
 * An {@link EmissionQueue} for any delay: a binary min-heap ordered by (emission time, slot), kept in
 * parallel arrays so that queuing an event allocates nothing. O(log n) per event. Used by one thread.
 */
final class EmissionHeap implements EmissionQueue {
    private long[] emitAt = new long[64];
    private long[] slot = new long[64];
    private FactoryEvent[] events = new FactoryEvent[64];
    private int size;

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public long firstEmitAt() {
        return emitAt[0];
    }

    @Override
    public long firstSlot() {
        return slot[0];
    }

    @Override
    public void add(long time, long slotIndex, FactoryEvent event) {
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

    @Override
    public FactoryEvent poll() {
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

    /** Nothing to do: the heap orders any times. */
    @Override
    public void advanceTo(long time) {}

    @Override
    public void clear() {
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
