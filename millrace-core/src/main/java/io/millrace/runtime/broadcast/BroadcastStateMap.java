package io.millrace.runtime.broadcast;

import io.millrace.api.state.BroadcastState;
import io.millrace.api.state.KeyHash;
import io.millrace.api.state.ReadOnlyBroadcastState;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * One broadcast state of one subtask: a map on the heap, whatever the keyed state backend, so that it is written to
 * checkpoints in one backend-independent layout ({@link BroadcastStateCodec}). {@link #readOnly()} is the view the
 * data side gets. Task thread only.
 */
final class BroadcastStateMap<K, V> implements BroadcastState<K, V> {
    private final String name;
    private final String operatorName;
    private final Map<K, V> entries = new HashMap<>();
    private final ReadOnlyView view = new ReadOnlyView();

    BroadcastStateMap(String name, String operatorName) {
        this.name = name;
        this.operatorName = operatorName;
    }

    String name() {
        return name;
    }

    /** The same entries, refusing every change. */
    ReadOnlyBroadcastState<K, V> readOnly() {
        return view;
    }

    /** The entries themselves, for snapshots and restores. */
    Map<K, V> entries() {
        return entries;
    }

    @Override
    public V get(K key) {
        return entries.get(key);
    }

    @Override
    public boolean contains(K key) {
        return entries.containsKey(key);
    }

    @Override
    public Iterable<Map.Entry<K, V>> immutableEntries() {
        return Collections.unmodifiableMap(entries).entrySet();
    }

    @Override
    public int size() {
        return entries.size();
    }

    @Override
    public boolean isEmpty() {
        return entries.isEmpty();
    }

    @Override
    public void put(K key, V value) {
        entries.put(checkKey(key), value);
    }

    @Override
    public void putAll(Map<K, V> more) {
        for (Map.Entry<K, V> e : more.entrySet()) {
            checkKey(e.getKey());
        }
        entries.putAll(more);
    }

    @Override
    public void remove(K key) {
        entries.remove(key);
    }

    @Override
    public void clear() {
        entries.clear();
    }

    private K checkKey(K key) {
        if (key == null) {
            throw new IllegalArgumentException("broadcast state '" + name + "' of operator '" + operatorName + "' takes no null keys");
        }
        try {
            KeyHash.of(key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("broadcast state '" + name + "' of operator '" + operatorName + "' cannot take the key "
                    + key + ": " + e.getMessage(), e);
        }
        return key;
    }

    @Override
    public String toString() {
        return "broadcast state '" + name + "' " + entries;
    }

    /**
     * The data side's view. It is a {@link BroadcastState} only so that a cast reaches these methods and their
     * message, not a ClassCastException.
     */
    private final class ReadOnlyView implements BroadcastState<K, V> {
        @Override
        public V get(K key) {
            return entries.get(key);
        }

        @Override
        public boolean contains(K key) {
            return entries.containsKey(key);
        }

        @Override
        public Iterable<Map.Entry<K, V>> immutableEntries() {
            return Collections.unmodifiableMap(entries).entrySet();
        }

        @Override
        public int size() {
            return entries.size();
        }

        @Override
        public boolean isEmpty() {
            return entries.isEmpty();
        }

        @Override
        public void put(K key, V value) {
            throw refused("put");
        }

        @Override
        public void putAll(Map<K, V> more) {
            throw refused("putAll");
        }

        @Override
        public void remove(K key) {
            throw refused("remove");
        }

        @Override
        public void clear() {
            throw refused("clear");
        }

        private UnsupportedOperationException refused(String call) {
            return new UnsupportedOperationException("broadcast state '" + name + "' of operator '" + operatorName
                    + "' is read-only on the data side (processElement, onTimer): " + call + " is refused; only"
                    + " processBroadcastElement may change it, so that every subtask keeps the same state");
        }

        @Override
        public String toString() {
            return "read-only broadcast state '" + name + "' " + entries;
        }
    }
}
