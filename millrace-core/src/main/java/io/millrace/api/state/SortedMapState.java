package io.millrace.api.state;

import java.util.Map;

/**
 * A map per key kept in the order of its map keys, for range scans and first/last lookups (versioned
 * tables, Top-N, OVER windows). The order is the one {@link SortedMapStateDescriptor} documents for the
 * key type: numbers by value, strings by Unicode code point; both backends use it, so results and
 * savepoints do not depend on the backend. With TTL each entry expires on its own, and an expired entry
 * is never returned.
 *
 * <p>Like all keyed state it reads and writes the map of the current key, on the task thread only. The
 * entry methods return snapshots (new lists, or single entries): the state may be changed (entries removed or put) while
 * the result of {@link #entries}, {@link #range}, {@link #headMap} or {@link #tailMap} is iterated.
 */
public interface SortedMapState<UK, UV> extends State {
    /** The value of {@code key}, or null when absent or expired. */
    UV get(UK key);

    /** Stores {@code value} under {@code key}; neither may be null. */
    void put(UK key, UV value);

    void remove(UK key);

    boolean contains(UK key);

    /** The entry of the least key, or null when the map is empty. */
    Map.Entry<UK, UV> firstEntry();

    /** The entry of the greatest key, or null when the map is empty. */
    Map.Entry<UK, UV> lastEntry();

    /** The entry of the greatest key less than or equal to {@code key}, or null. */
    Map.Entry<UK, UV> floorEntry(UK key);

    /** The entry of the least key greater than or equal to {@code key}, or null. */
    Map.Entry<UK, UV> ceilingEntry(UK key);

    /** Every live entry, in ascending key order. */
    Iterable<Map.Entry<UK, UV>> entries();

    /**
     * The live entries with {@code fromInclusive <= key < toExclusive}, in ascending key order; a null bound
     * is no bound. Empty when {@code fromInclusive} is not less than {@code toExclusive}.
     */
    Iterable<Map.Entry<UK, UV>> range(UK fromInclusive, UK toExclusive);

    /** The live entries with keys less than {@code toExclusive}, in ascending key order. */
    default Iterable<Map.Entry<UK, UV>> headMap(UK toExclusive) {
        return range(null, toExclusive);
    }

    /** The live entries with keys greater than or equal to {@code fromInclusive}, in ascending key order. */
    default Iterable<Map.Entry<UK, UV>> tailMap(UK fromInclusive) {
        return range(fromInclusive, null);
    }

    boolean isEmpty();
}
