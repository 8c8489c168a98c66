package io.millrace.api.state;

import java.util.Map;

/**
 * The broadcast state as the broadcast side of a broadcast connection sees it: a map kept by every subtask of the
 * operator, changed only by the broadcast records, which every subtask receives in the same order. It is operator
 * state, not keyed state: one map per subtask, checkpointed, and restored to every subtask at any parallelism.
 * Keys follow the rules of keyed state's keys ({@link KeyHash}); values anything the state serializer stores.
 *
 * <p>Called on the operator's task thread only. A function on the data side gets the same map as a
 * {@link ReadOnlyBroadcastState}; the changing methods refuse there with {@link UnsupportedOperationException}.
 */
public interface BroadcastState<K, V> extends ReadOnlyBroadcastState<K, V> {
    /**
     * Sets the value of {@code key}; a null value is stored as such.
     *
     * @throws IllegalArgumentException naming the state for a null key or a key class that cannot be hashed
     */
    void put(K key, V value);

    void putAll(Map<K, V> entries);

    void remove(K key);

    void clear();
}
