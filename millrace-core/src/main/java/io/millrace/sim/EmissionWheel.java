package io.millrace.sim;

import java.util.Arrays;

/**
 * An {@link EmissionQueue} for bounded delays: a ring of one bucket per millisecond, each a FIFO list.
 * Because events arrive in slot order, a bucket's FIFO order is slot order, so the queue yields
 * (emission time, slot) order in O(1) per event. All queued events must lie in
 * {@code [frontier, frontier + span)}, which holds when the longest delay is below the span and the
 * caller {@link #advanceTo advances} the frontier to each generated slot's time (the first time before
 * any add). Nodes live in parallel arrays with a free list: nothing is allocated per event. Used by one
 * thread.
 */
final class EmissionWheel implements EmissionQueue {
    private final int mask;
    private final int[] head;
    private final int[] tail;
    private int[] next = new int[256];
    private long[] slot = new long[256];
    private FactoryEvent[] events = new FactoryEvent[256];
    private int free = -1;
    private int allocated;
    private int size;
    /** No event, queued or to come, has an earlier emission time. */
    private long frontier = Long.MIN_VALUE;
    /** Where the search for the first event starts: {@code frontier <= scan <= } the first event's time. */
    private long scan = Long.MIN_VALUE;

    /** A wheel for delays of at most {@code maxDelayMillis}; its span is a power of two above that. */
    EmissionWheel(long maxDelayMillis) {
        int span = Integer.highestOneBit((int) Math.max(1, maxDelayMillis + 1)) << 1;
        this.mask = span - 1;
        this.head = new int[span];
        this.tail = new int[span];
        Arrays.fill(head, -1);
        Arrays.fill(tail, -1);
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public long firstEmitAt() {
        seekFirst();
        return scan;
    }

    @Override
    public long firstSlot() {
        seekFirst();
        return slot[head[(int) (scan & mask)]];
    }

    @Override
    public void add(long emitAt, long slotIndex, FactoryEvent event) {
        if (frontier == Long.MIN_VALUE || emitAt < frontier || emitAt - frontier > mask) {
            throw new IllegalStateException("emission time " + emitAt + " outside the wheel [" + frontier + ", +" + mask + "]");
        }
        int node = allocate();
        slot[node] = slotIndex;
        events[node] = event;
        next[node] = -1;
        if (emitAt < scan) {
            scan = emitAt;
        }
        int bucket = (int) (emitAt & mask);
        if (tail[bucket] < 0) {
            head[bucket] = node;
        } else {
            next[tail[bucket]] = node;
        }
        tail[bucket] = node;
        size++;
    }

    @Override
    public FactoryEvent poll() {
        seekFirst();
        frontier = scan;
        int bucket = (int) (scan & mask);
        int node = head[bucket];
        head[bucket] = next[node];
        if (head[bucket] < 0) {
            tail[bucket] = -1;
        }
        FactoryEvent event = events[node];
        events[node] = null;
        next[node] = free;
        free = node;
        size--;
        return event;
    }

    @Override
    public void advanceTo(long time) {
        if (time > frontier) {
            frontier = time;
            scan = Math.max(scan, time);
        }
    }

    @Override
    public void clear() {
        Arrays.fill(head, -1);
        Arrays.fill(tail, -1);
        Arrays.fill(events, null);
        free = -1;
        allocated = 0;
        scan = frontier;
        size = 0;
    }

    /** Moves the scan position to the first non-empty bucket; the wheel must not be empty. */
    private void seekFirst() {
        while (head[(int) (scan & mask)] < 0) {
            scan++;
        }
    }

    private int allocate() {
        if (free >= 0) {
            int node = free;
            free = next[node];
            return node;
        }
        if (allocated == next.length) {
            next = Arrays.copyOf(next, allocated * 2);
            slot = Arrays.copyOf(slot, allocated * 2);
            events = Arrays.copyOf(events, allocated * 2);
        }
        return allocated++;
    }
}
