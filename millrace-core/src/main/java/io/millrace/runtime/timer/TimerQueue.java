package io.millrace.runtime.timer;

import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.ReadAhead;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Timers of one time domain, grouped by timestamp: a binary min-heap of {@link TimerBucket}s, one per distinct
 * timestamp, each holding its timers in registration order, plus an open-addressing table from timestamp to
 * bucket and one {@link GroupTimers} set per owned key group (deduplication, deletion, per-group snapshots).
 * Many keys usually share a timestamp (the end of a window), so registering costs a set lookup and an append
 * to the bucket of the last timestamp used, and firing takes timers off the head bucket in order, with no heap
 * work per timer. Order of firing: timestamp, then registration order. Deletion unlinks the timer at once, so
 * memory stays bounded. Registering an existing timer allocates nothing. Task thread only.
 */
final class TimerQueue<N> {
    private final KeyGroupRange range;
    private final GroupTimers<N>[] byGroup;
    private final Timer<N> probe = new Timer<>();
    @SuppressWarnings({"unchecked", "rawtypes"})
    private TimerBucket<N>[] heap = new TimerBucket[16];
    private int buckets;
    /** Timestamp to bucket: linear probing over {@code bucketSlots}, at most half full. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private TimerBucket<N>[] bucketSlots = new TimerBucket[16];
    /** The bucket used last: consecutive registrations usually share a timestamp. */
    private TimerBucket<N> lastBucket;
    private int size;
    private long nextSequence;

    @SuppressWarnings({"unchecked", "rawtypes"})
    TimerQueue(KeyGroupRange range) {
        this.range = range;
        this.byGroup = new GroupTimers[range.size()];
        for (int i = 0; i < byGroup.length; i++) {
            byGroup[i] = new GroupTimers<>();
        }
    }

    int size() {
        return size;
    }

    /** Adds the timer unless it exists; returns whether it was added. */
    boolean add(Object key, int keyGroup, N namespace, long timestamp) {
        probe.set(key, keyGroup, namespace, timestamp);
        GroupTimers<N> group = byGroup[keyGroup - range.start()];
        if (group.find(probe) != null) {
            return false;
        }
        Timer<N> t = probe.copy();
        t.sequence = nextSequence++;
        group.add(t);
        bucketFor(timestamp).append(t);
        size++;
        return true;
    }

    /** Removes the timer if it exists. */
    void remove(Object key, int keyGroup, N namespace, long timestamp) {
        probe.set(key, keyGroup, namespace, timestamp);
        GroupTimers<N> group = byGroup[keyGroup - range.start()];
        Timer<N> t = group.find(probe);
        if (t != null) {
            group.remove(t);
            unlink(t, findBucket(timestamp));
        }
    }

    /** The earliest timestamp, or Long.MAX_VALUE when empty. */
    long peekTimestamp() {
        return buckets == 0 ? Long.MAX_VALUE : heap[0].timestamp;
    }

    /** The earliest timer without removing it; the queue must not be empty. */
    Timer<N> peek() {
        return heap[0].first;
    }

    /** Removes and returns the earliest timer; the queue must not be empty. */
    Timer<N> poll() {
        TimerBucket<N> b = heap[0];
        Timer<N> t = b.first;
        byGroup[t.keyGroup() - range.start()].remove(t);
        unlink(t, b);
        return t;
    }

    /**
     * Reads ahead ({@link ReadAhead}) what firing the next timers of the earliest timestamp will touch: each
     * timer's slot in its group's set, its key and the key's state in {@code keys}; at most {@code max}
     * timers, stopping at the end of the timestamp. Returns how many timers it read ahead (plus the reads' figure,
     * always 0). Only reads.
     */
    int readAhead(int max, KeyedStateBackend keys) {
        if (buckets == 0) {
            return 0;
        }
        int n = 0;
        int found = 0;
        for (Timer<N> t = heap[0].first; t != null && n < max; t = t.bucketNext) {
            found += byGroup[t.keyGroup() - range.start()].readAhead(t.hashCode()) + keys.readAhead(t.key(), t.keyGroup());
            n++;
        }
        return n + found;
    }

    /** Visits the timers of one owned key group: the unit of snapshots and rescaling. */
    void forEachInGroup(int keyGroup, Consumer<Timer<N>> action) {
        byGroup[keyGroup - range.start()].forEach(action);
    }

    private void unlink(Timer<N> t, TimerBucket<N> b) {
        b.unlink(t);
        size--;
        if (b.isEmpty()) {
            removeBucket(b);
        }
    }

    // ---- buckets by timestamp ----

    private TimerBucket<N> bucketFor(long timestamp) {
        TimerBucket<N> b = lastBucket;
        if (b != null && b.timestamp == timestamp) {
            return b;
        }
        b = findBucket(timestamp);
        if (b == null) {
            b = new TimerBucket<>(timestamp);
            insertBucket(b);
        }
        lastBucket = b;
        return b;
    }

    private TimerBucket<N> findBucket(long timestamp) {
        TimerBucket<N>[] s = bucketSlots;
        int mask = s.length - 1;
        for (int i = slot(timestamp, mask); ; i = (i + 1) & mask) {
            TimerBucket<N> b = s[i];
            if (b == null || b.timestamp == timestamp) {
                return b;
            }
        }
    }

    private void insertBucket(TimerBucket<N> b) {
        if (2 * (buckets + 1) > bucketSlots.length) {
            rehash(bucketSlots.length * 2);
        }
        place(bucketSlots, b);
        if (buckets == heap.length) {
            heap = Arrays.copyOf(heap, buckets * 2);
        }
        heap[buckets] = b;
        b.heapIndex = buckets;
        buckets++;
        siftUp(b.heapIndex);
    }

    private void removeBucket(TimerBucket<N> b) {
        if (lastBucket == b) {
            lastBucket = null;
        }
        removeSlot(b);
        int i = b.heapIndex;
        b.heapIndex = -1;
        buckets--;
        if (i == buckets) {
            heap[buckets] = null;
            return;
        }
        TimerBucket<N> moved = heap[buckets];
        heap[buckets] = null;
        heap[i] = moved;
        moved.heapIndex = i;
        siftDown(i);
        if (moved.heapIndex == i) {
            siftUp(i);
        }
    }

    /** Deletes from the linear-probing table, moving later entries of the run back into the gap. */
    private void removeSlot(TimerBucket<N> b) {
        TimerBucket<N>[] s = bucketSlots;
        int mask = s.length - 1;
        int gap = slot(b.timestamp, mask);
        while (s[gap] != b) {
            gap = (gap + 1) & mask;
        }
        s[gap] = null;
        for (int i = (gap + 1) & mask; s[i] != null; i = (i + 1) & mask) {
            int home = slot(s[i].timestamp, mask);
            // s[i] may move into the gap when its home is not in the cyclic range (gap, i]
            if (((i - home) & mask) >= ((i - gap) & mask)) {
                s[gap] = s[i];
                s[i] = null;
                gap = i;
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void rehash(int slotCount) {
        TimerBucket<N>[] fresh = new TimerBucket[slotCount];
        for (int i = 0; i < buckets; i++) {
            place(fresh, heap[i]);
        }
        bucketSlots = fresh;
    }

    private static <N> void place(TimerBucket<N>[] s, TimerBucket<N> b) {
        int mask = s.length - 1;
        int i = slot(b.timestamp, mask);
        while (s[i] != null) {
            i = (i + 1) & mask;
        }
        s[i] = b;
    }

    private static int slot(long timestamp, int mask) {
        long h = timestamp * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 32) & mask;
    }

    private void siftUp(int i) {
        TimerBucket<N> b = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            TimerBucket<N> p = heap[parent];
            if (b.timestamp >= p.timestamp) {
                break;
            }
            heap[i] = p;
            p.heapIndex = i;
            i = parent;
        }
        heap[i] = b;
        b.heapIndex = i;
    }

    private void siftDown(int i) {
        TimerBucket<N> b = heap[i];
        int half = buckets >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < buckets && heap[right].timestamp < heap[child].timestamp) {
                child = right;
            }
            if (heap[child].timestamp >= b.timestamp) {
                break;
            }
            heap[i] = heap[child];
            heap[i].heapIndex = i;
            i = child;
        }
        heap[i] = b;
        b.heapIndex = i;
    }
}
