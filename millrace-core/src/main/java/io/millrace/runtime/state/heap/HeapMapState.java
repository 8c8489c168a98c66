package io.millrace.runtime.state.heap;

import io.millrace.api.state.MapState;
import io.millrace.api.state.StateTtlConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Map state: the table holds a {@link HashMap} per key, never an empty one. Without TTL the map holds
 * the user values; with TTL it holds a {@link Stamped} per user entry, so that entries expire one by
 * one. The sweep prunes expired entries of the maps it visits and drops maps that become empty.
 */
final class HeapMapState<UK, UV> implements MapState<UK, UV> {
    private final Table table;

    HeapMapState(Table table) {
        this.table = table;
    }

    /** A user value with its expiry. */
    static final class Stamped {
        Object value;
        long expiry;

        Stamped(Object value, long expiry) {
            this.value = value;
            this.expiry = expiry;
        }
    }

    /** The storage of a map state; its sweep expires entries inside the maps. */
    static final class Table extends StateTable {
        Table(String name, HeapKeyedStateBackend backend, StateTtlConfig ttl) {
            super(name, backend, ttl, false);
        }

        @Override
        public boolean isDead(KeyTable table, int position, long now) {
            Map<?, ?> map = (Map<?, ?>) table.value(position);
            map.values().removeIf(v -> ((Stamped) v).expiry <= now);
            return map.isEmpty();
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public UV get(UK key) {
        int p = table.entry(false);
        if (p < 0) {
            return null;
        }
        Map<UK, Object> map = (Map<UK, Object>) table.value(p);
        Object stored = map.get(key);
        if (stored == null || !table.hasTtl()) {
            return (UV) stored;
        }
        Stamped s = live(map, key, (Stamped) stored);
        return s == null ? null : (UV) s.value;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void put(UK key, UV value) {
        Objects.requireNonNull(key, () -> "map state '" + table.name + "' does not accept null keys");
        Objects.requireNonNull(value, () -> "map state '" + table.name + "' does not accept null values");
        int p = table.entry(true);
        Map<UK, Object> map;
        if (p < 0) {
            map = new HashMap<>(4);
            table.insert(map);
        } else {
            map = (Map<UK, Object>) table.value(p);
        }
        if (!table.hasTtl()) {
            map.put(key, value);
            return;
        }
        long expiry = table.backend.clock.millis() + table.ttlMillis;
        Stamped s = (Stamped) map.get(key);
        if (s == null) {
            map.put(key, new Stamped(value, expiry));
        } else {
            s.value = value;
            s.expiry = expiry;
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void remove(UK key) {
        int p = table.entry(true);
        if (p < 0) {
            return;
        }
        Map<UK, Object> map = (Map<UK, Object>) table.value(p);
        map.remove(key);
        if (map.isEmpty()) {
            table.remove();
        }
    }

    @Override
    public boolean contains(UK key) {
        return get(key) != null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Iterable<Map.Entry<UK, UV>> entries() {
        int p = table.entry(false);
        if (p < 0) {
            return List.of();
        }
        Map<UK, Object> map = (Map<UK, Object>) table.value(p);
        List<Map.Entry<UK, UV>> out = new ArrayList<>(map.size());
        if (!table.hasTtl()) {
            for (Map.Entry<UK, Object> me : map.entrySet()) {
                out.add(Map.entry(me.getKey(), (UV) me.getValue()));
            }
            return out;
        }
        long now = table.backend.clock.millis();
        for (Iterator<Map.Entry<UK, Object>> it = map.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<UK, Object> me = it.next();
            Stamped s = (Stamped) me.getValue();
            if (s.expiry <= now) {
                it.remove();
            } else {
                if (table.refreshOnRead) {
                    s.expiry = now + table.ttlMillis;
                }
                out.add(Map.entry(me.getKey(), (UV) s.value));
            }
        }
        if (map.isEmpty()) {
            table.remove();
        }
        return out;
    }

    @Override
    public boolean isEmpty() {
        if (!table.hasTtl()) {
            return table.entry(false) < 0;
        }
        return !entries().iterator().hasNext();
    }

    @Override
    public void clear() {
        table.remove();
    }

    /** The stamped value if still live (refreshed when TTL restarts on read), else removes it and returns null. */
    private Stamped live(Map<UK, Object> map, UK key, Stamped s) {
        long now = table.backend.clock.millis();
        if (s.expiry <= now) {
            map.remove(key);
            if (map.isEmpty()) {
                table.remove();
            }
            return null;
        }
        if (table.refreshOnRead) {
            s.expiry = now + table.ttlMillis;
        }
        return s;
    }
}
