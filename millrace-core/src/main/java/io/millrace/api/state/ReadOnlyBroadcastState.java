package io.millrace.api.state;

import java.util.Map;

/**
 * The broadcast state as the data side of a broadcast connection sees it: a map, the same on every subtask, that it
 * may read but not change. Only the broadcast side changes it ({@link BroadcastState}), so that every subtask, having
 * seen the same broadcast records in the same order, holds the same entries. The values returned must be treated as
 * immutable: a value changed in place would change it on this subtask only.
 *
 * <p>Called on the operator's task thread only.
 */
public interface ReadOnlyBroadcastState<K, V> extends State {
    /** The value of {@code key}, or null when there is none. */
    V get(K key);

    boolean contains(K key);

    /** The entries, in no particular order; the iterator and the entries refuse changes. */
    Iterable<Map.Entry<K, V>> immutableEntries();

    int size();

    boolean isEmpty();
}
