package io.millrace.runtime.state.heap;

import io.millrace.runtime.state.heap.HeapMapState.Stamped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The restored entries of one named state, by key group, kept until the operator registers the state by
 * name and then moved into its table. Until then a snapshot writes them as they are, so state that an
 * operator registers only later (or never) is not lost by a checkpoint. Entries are added only while
 * restoring and never removed. Task thread only; snapshots read it.
 */
final class RestoredState {
    final String name;
    final String kind;
    /** Whether the checkpointed state had TTL: entries (or map entries, as {@link Stamped}) carry expiries. */
    final boolean ttl;
    private final Map<Integer, List<Entry>> byGroup = new HashMap<>();

    /** One key's stored value in a key group; {@code expiry} only with TTL on a non-map state. */
    record Entry(int keyGroup, Object key, Object value, long expiry) {}

    RestoredState(String name, String kind, boolean ttl) {
        this.name = name;
        this.kind = kind;
        this.ttl = ttl;
    }

    void add(int keyGroup, Object key, Object value, long expiry) {
        byGroup.computeIfAbsent(keyGroup, g -> new ArrayList<>()).add(new Entry(keyGroup, key, value, expiry));
    }

    /** The entries of one key group, as restored. */
    List<Entry> entries(int keyGroup) {
        return byGroup.getOrDefault(keyGroup, List.of());
    }

    /** Refuses to mix sections of the same state name with another kind or TTL setting. */
    void checkSame(String otherKind, boolean otherTtl) {
        if (!kind.equals(otherKind) || ttl != otherTtl) {
            throw new IllegalStateException("state '" + name + "' was checkpointed as " + describe(kind, ttl)
                    + " in one key group and as " + describe(otherKind, otherTtl) + " in another");
        }
    }

    /**
     * Moves the entries into {@code table}, registered as {@code registeredKind}. Expiries continue as
     * checkpointed; entries of a state checkpointed without TTL but registered with one start a fresh TTL
     * at {@code now}; with TTL dropped, expiries are dropped.
     */
    void adoptInto(StateTable table, String registeredKind, long now) {
        if (!kind.equals(registeredKind)) {
            throw new IllegalStateException("state '" + name + "' was checkpointed as " + kind
                    + " state but is now registered as " + registeredKind + " state");
        }
        long freshExpiry = table.hasTtl() ? now + table.ttlMillis : Long.MAX_VALUE;
        for (List<Entry> entries : byGroup.values()) {
            for (Entry e : entries) {
                if (kind.equals(KeyGroupSection.MAP)) {
                    table.restore(e.keyGroup, e.key, mapValue(e.value, table.hasTtl(), freshExpiry), Long.MAX_VALUE);
                } else {
                    table.restore(e.keyGroup, e.key, e.value, ttl ? e.expiry : freshExpiry);
                }
            }
        }
    }

    /** A map state's map with {@link Stamped} values exactly when the registered state has TTL. */
    private Object mapValue(Object value, boolean tableTtl, long freshExpiry) {
        if (tableTtl == ttl) {
            return value;
        }
        Map<?, ?> map = (Map<?, ?>) value;
        HashMap<Object, Object> converted = new HashMap<>(map.size() * 4 / 3 + 1);
        for (Map.Entry<?, ?> me : map.entrySet()) {
            converted.put(me.getKey(), tableTtl ? new Stamped(me.getValue(), freshExpiry) : ((Stamped) me.getValue()).value);
        }
        return converted;
    }

    private static String describe(String kind, boolean ttl) {
        return kind + (ttl ? " state with TTL" : " state without TTL");
    }
}
