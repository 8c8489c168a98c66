package io.millrace.runtime.timer;

/**
 * The timers of one timestamp in a {@link TimerQueue}, in registration order (a doubly linked list through
 * the timers), with the bucket's place in the queue's heap of timestamps. Task thread only.
 */
final class TimerBucket<N> {
    final long timestamp;
    Timer<N> first;
    Timer<N> last;
    int heapIndex = -1;

    TimerBucket(long timestamp) {
        this.timestamp = timestamp;
    }

    boolean isEmpty() {
        return first == null;
    }

    /** Appends a timer registered after every timer already here. */
    void append(Timer<N> t) {
        t.bucketPrev = last;
        t.bucketNext = null;
        if (last == null) {
            first = t;
        } else {
            last.bucketNext = t;
        }
        last = t;
    }

    /** Removes a timer of this bucket. */
    void unlink(Timer<N> t) {
        if (t.bucketPrev == null) {
            first = t.bucketNext;
        } else {
            t.bucketPrev.bucketNext = t.bucketNext;
        }
        if (t.bucketNext == null) {
            last = t.bucketPrev;
        } else {
            t.bucketNext.bucketPrev = t.bucketPrev;
        }
        t.bucketPrev = null;
        t.bucketNext = null;
    }
}
