package io.millrace.runtime.timer;

import io.millrace.runtime.state.KeyGroupRange;
import java.util.Arrays;
import java.util.HashMap;
import java.util.function.Consumer;

/**
 * Timers of one time domain: an indexed binary min-heap by timestamp (so deletion removes the timer
 * at once and memory stays bounded), plus one hash map per owned key group for deduplication,
 * deletion and per-group snapshots. Registering an existing timer allocates nothing. Task thread only.
 */
final class TimerQueue<N> {
    private final KeyGroupRange range;
    private final HashMap<Timer<N>, Timer<N>>[] byGroup;
    private final Timer<N> probe = new Timer<>();
    @SuppressWarnings({"unchecked", "rawtypes"})
    private Timer<N>[] heap = new Timer[16];
    private int size;
    private long nextSequence;

    @SuppressWarnings({"unchecked", "rawtypes"})
    TimerQueue(KeyGroupRange range) {
        this.range = range;
        this.byGroup = new HashMap[range.size()];
        for (int i = 0; i < byGroup.length; i++) {
            byGroup[i] = new HashMap<>();
        }
    }

    int size() {
        return size;
    }

    /** Adds the timer unless it exists; returns whether it was added. */
    boolean add(Object key, int keyGroup, N namespace, long timestamp) {
        probe.set(key, keyGroup, namespace, timestamp);
        HashMap<Timer<N>, Timer<N>> group = byGroup[keyGroup - range.start()];
        if (group.containsKey(probe)) {
            return false;
        }
        Timer<N> t = probe.copy();
        t.sequence = nextSequence++;
        group.put(t, t);
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        heap[size] = t;
        t.heapIndex = size;
        size++;
        siftUp(t.heapIndex);
        return true;
    }

    /** Removes the timer if it exists. */
    void remove(Object key, int keyGroup, N namespace, long timestamp) {
        probe.set(key, keyGroup, namespace, timestamp);
        Timer<N> t = byGroup[keyGroup - range.start()].remove(probe);
        if (t != null) {
            removeAt(t.heapIndex);
        }
    }

    /** The earliest timestamp, or Long.MAX_VALUE when empty. */
    long peekTimestamp() {
        return size == 0 ? Long.MAX_VALUE : heap[0].timestamp();
    }

    /** The earliest timer without removing it; the queue must not be empty. */
    Timer<N> peek() {
        return heap[0];
    }

    /** Removes and returns the earliest timer; the queue must not be empty. */
    Timer<N> poll() {
        Timer<N> t = heap[0];
        byGroup[t.keyGroup() - range.start()].remove(t);
        removeAt(0);
        return t;
    }

    /** Visits the timers of one owned key group: the unit of snapshots and rescaling. */
    void forEachInGroup(int keyGroup, Consumer<Timer<N>> action) {
        byGroup[keyGroup - range.start()].keySet().forEach(action);
    }

    private void removeAt(int i) {
        Timer<N> removed = heap[i];
        removed.heapIndex = -1;
        size--;
        if (i == size) {
            heap[size] = null;
            return;
        }
        Timer<N> last = heap[size];
        heap[size] = null;
        heap[i] = last;
        last.heapIndex = i;
        siftDown(i);
        if (last.heapIndex == i) {
            siftUp(i);
        }
    }

    private void siftUp(int i) {
        Timer<N> t = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Timer<N> p = heap[parent];
            if (!t.firesBefore(p)) {
                break;
            }
            heap[i] = p;
            p.heapIndex = i;
            i = parent;
        }
        heap[i] = t;
        t.heapIndex = i;
    }

    private void siftDown(int i) {
        Timer<N> t = heap[i];
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < size && heap[right].firesBefore(heap[child])) {
                child = right;
            }
            if (!heap[child].firesBefore(t)) {
                break;
            }
            heap[i] = heap[child];
            heap[i].heapIndex = i;
            i = child;
        }
        heap[i] = t;
        t.heapIndex = i;
    }
}
