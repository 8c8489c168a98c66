package io.millrace.runtime.state.heap;

import io.millrace.runtime.state.LogicalSection;
import io.millrace.runtime.state.heap.HeapMapState.Stamped;
import io.millrace.runtime.state.serde.ShapeTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The restored entries of one named state, by key group, kept encoded (with the schema dictionary of their
 * section) until the operator registers the state by name; then they are decoded, with the classes as they
 * are then, into its table. So a stored type that no longer fits fails when the state is created, naming
 * it, and a state that the operator no longer registers (a renamed descriptor) is carried into later
 * snapshots as it is, never decoded. Chunks are added only while restoring. Task thread only; snapshots
 * read it.
 */
final class RestoredState {
    final String name;
    final String kind;
    /** Whether the checkpointed state had TTL: entries (or map entries, as {@link Stamped}) carry expiries. */
    final boolean ttl;
    private final Map<Integer, List<Chunk>> byGroup = new HashMap<>();

    /** {@code count} encoded entries of one key group: {@code bytes[from, to)}, whose shapes are in {@code shapes}. */
    record Chunk(ShapeTable shapes, byte[] bytes, int from, int to, int count) {}

    RestoredState(String name, String kind, boolean ttl) {
        this.name = name;
        this.kind = kind;
        this.ttl = ttl;
    }

    void add(int keyGroup, Chunk chunk) {
        byGroup.computeIfAbsent(keyGroup, g -> new ArrayList<>()).add(chunk);
    }

    /** The encoded entries of one key group, as restored. */
    List<Chunk> chunks(int keyGroup) {
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
     * Decodes the entries into {@code table}, registered as {@code registeredKind}. Expiries continue as
     * checkpointed; entries of a state checkpointed without TTL but registered with one start a fresh TTL
     * at {@code now}; with TTL dropped, expiries are dropped. Fails with a
     * {@link io.millrace.runtime.state.serde.StateSchemaException} naming the state and {@code operator}
     * when a stored type does not fit the class as it is now.
     */
    void adoptInto(StateTable table, String registeredKind, long now, String operator) {
        if (!kind.equals(registeredKind)) {
            throw kindMismatch(operator, name, registeredKind, kind);
        }
        long freshExpiry = table.hasTtl() ? now + table.ttlMillis : Long.MAX_VALUE;
        for (Map.Entry<Integer, List<Chunk>> group : byGroup.entrySet()) {
            int keyGroup = group.getKey();
            for (Chunk chunk : group.getValue()) {
                SectionReader.decode(this, chunk, operator, (key, value, expiry) -> {
                    if (kind.equals(KeyGroupSection.MAP)) {
                        table.restore(keyGroup, key, mapValue(value, table.hasTtl(), freshExpiry), Long.MAX_VALUE);
                    } else if (kind.equals(LogicalSection.SORTED_MAP)) {
                        Map<?, ?> map = (Map<?, ?>) mapValue(value, table.hasTtl(), freshExpiry);
                        table.restore(keyGroup, key, ((HeapSortedMapState.Table) table).sorted(map), Long.MAX_VALUE);
                    } else if (kind.equals(KeyGroupSection.LIST)) {
                        Object elements = HeapListState.stored((List<?>) value);
                        if (elements != null) {
                            table.restore(keyGroup, key, elements, ttl ? expiry : freshExpiry);
                        }
                    } else {
                        table.restore(keyGroup, key, value, ttl ? expiry : freshExpiry);
                    }
                });
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

    /**
     * The failure of a restore whose state {@code name} of {@code operator} (null when unknown) was snapshotted as
     * {@code found} and is registered as {@code expected}.
     */
    static IllegalStateException kindMismatch(String operator, String name, String expected, String found) {
        return new IllegalStateException((operator == null ? "" : "operator '" + operator + "', ") + "state '" + name
                + "': the job registers it as " + expected + " state, but the checkpoint or savepoint holds " + found
                + " state under that name; register it as before, or give the new state another name");
    }

    private static String describe(String kind, boolean ttl) {
        return kind + (ttl ? " state with TTL" : " state without TTL");
    }
}
