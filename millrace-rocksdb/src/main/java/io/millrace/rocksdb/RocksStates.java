package io.millrace.rocksdb;

import io.millrace.api.state.StateTtlConfig;
import io.millrace.rocksdb.KeyGroupRows.StatePart;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The states one {@link RocksDbKeyedStateBackend} created, by name in creation order: each one's kind, the
 * typed object handed out for it and its {@link StateColumn}. Creating a state checks its stored schema,
 * records it in the store's metadata and claims rows restored for it. Task thread only.
 */
final class RocksStates {
    private final RocksDbKeyedStateBackend backend;
    private final Map<String, Registered> states = new LinkedHashMap<>();
    private final List<StateColumn> ttlColumns = new ArrayList<>();

    /** A state's kind (or "namespaced") and the object handed out for it. */
    private record Registered(String kind, Object state, StateColumn column) {}

    RocksStates(RocksDbKeyedStateBackend backend) {
        this.backend = backend;
    }

    /**
     * Gets or creates a state; the same name with another kind is refused. {@code cache}: the backend's state
     * cache, or null; a new state's column uses it for single-row states (lists only without TTL).
     */
    Object register(String name, String kind, boolean multiRow, StateTtlConfig ttl, StateCache cache,
            Function<StateColumn, Object> factory) {
        Registered r = states.get(name);
        if (r != null) {
            if (!r.kind.equals(kind)) {
                throw new IllegalArgumentException("state '" + name + "' is already registered as " + r.kind
                        + " state, cannot register it again as " + kind + " state");
            }
            return r.state;
        }
        backend.requireOpen();
        backend.checkSchema(name);
        boolean cached = cache != null && !multiRow && !(kind.equals("list") && ttl.enabled());
        StateColumn column = new StateColumn(name, kind, states.size(), multiRow, ttl, backend, backend.stateColumn(name),
                cached ? cache : null);
        backend.store().meta().put(RocksDbKeyedStateBackend.utf8("state:" + name), RocksDbKeyedStateBackend.utf8(kind + ", " + ttl));
        backend.restored().claimState(column);
        Object state = factory.apply(column);
        states.put(name, new Registered(kind, state, column));
        if (column.hasTtl()) {
            ttlColumns.add(column);
        }
        return state;
    }

    /** The created state of that name, null if none. */
    StateColumn created(String name) {
        Registered r = states.get(name);
        return r == null ? null : r.column;
    }

    boolean contains(String name) {
        return states.containsKey(name);
    }

    boolean isEmpty() {
        return states.isEmpty();
    }

    List<String> names() {
        return List.copyOf(states.keySet());
    }

    /** Sweeps up to {@code rows} rows of every TTL state. */
    void sweep(long now, int rows) {
        for (int i = 0; i < ttlColumns.size(); i++) {
            ttlColumns.get(i).expiries.sweep(now, rows);
        }
    }

    /** Stored entries over all states; scans every column family. */
    long entryCount() {
        long n = 0;
        for (Registered r : states.values()) {
            n += r.column.scan.entryCount();
        }
        return n;
    }

    /** Visits one state's stored (key, value) pairs of one key group; see {@link ColumnScan#forEachInGroup}. */
    void forEachInGroup(String stateName, int keyGroup, BiConsumer<Object, Object> action) {
        Registered r = states.get(stateName);
        if (r == null) {
            throw new IllegalArgumentException("no state named '" + stateName + "'");
        }
        r.column.scan.forEachInGroup(keyGroup, action);
    }

    /** Bytes of the SST files of all states, as RocksDB reports them. */
    long sstBytes(RocksDbStore store) {
        long n = 0;
        for (Registered r : states.values()) {
            n += store.property(r.column.bytes(), "rocksdb.total-sst-files-size");
        }
        return n;
    }

    /** Every created state, as a snapshot sees it. */
    void addParts(List<StatePart> parts) {
        for (Map.Entry<String, Registered> e : states.entrySet()) {
            StateColumn c = e.getValue().column;
            parts.add(new StatePart(e.getKey(), e.getValue().kind, c.hasTtl(), c.bytes()));
        }
    }

    int size() {
        return states.size();
    }

    void clear() {
        states.clear();
        ttlColumns.clear();
    }
}
