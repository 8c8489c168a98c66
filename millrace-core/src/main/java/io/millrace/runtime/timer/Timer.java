package io.millrace.runtime.timer;

import java.util.Objects;

/**
 * One registered timer: (key, namespace, timestamp), with the key's group and its links in a
 * {@link TimerQueue}: the chain of its key group's hash set and its place in the list of timers of its
 * timestamp. Identity for deduplication is (key, namespace, timestamp). A queue reuses one mutable
 * instance as a lookup probe, so the fields other than the links are set only through {@link #set}.
 */
public final class Timer<N> {
    private Object key;
    private int keyGroup;
    private N namespace;
    private long timestamp;
    private int hash;
    long sequence;
    /** Next timer in the same slot of its key group's set ({@link GroupTimers}). */
    Timer<N> groupNext;
    /** Neighbours in the registration-ordered list of its timestamp ({@link TimerBucket}). */
    Timer<N> bucketPrev;
    Timer<N> bucketNext;

    Timer() {}

    void set(Object key, int keyGroup, N namespace, long timestamp) {
        this.key = key;
        this.keyGroup = keyGroup;
        this.namespace = namespace;
        this.timestamp = timestamp;
        this.hash = (key.hashCode() * 31 + Objects.hashCode(namespace)) * 31 + Long.hashCode(timestamp);
    }

    Timer<N> copy() {
        Timer<N> t = new Timer<>();
        t.set(key, keyGroup, namespace, timestamp);
        return t;
    }

    public Object key() {
        return key;
    }

    public int keyGroup() {
        return keyGroup;
    }

    public N namespace() {
        return namespace;
    }

    public long timestamp() {
        return timestamp;
    }

    /** Registration order within its queue: of two timers with the same timestamp, the lower fires first. */
    public long sequence() {
        return sequence;
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Timer<?> t
                && t.timestamp == timestamp
                && t.hash == hash
                && t.key.equals(key)
                && Objects.equals(t.namespace, namespace);
    }

    @Override
    public String toString() {
        return "Timer(" + key + ", " + namespace + ", " + timestamp + ")";
    }
}
