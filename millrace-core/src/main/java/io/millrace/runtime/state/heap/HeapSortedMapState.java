package io.millrace.runtime.state.heap;

import io.millrace.api.state.SortedMapState;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.runtime.state.SortedKeyEncoding;
import io.millrace.runtime.state.heap.HeapMapState.Stamped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Sorted map state: the table holds a {@link TreeMap} per key in the descriptor's key order, never an empty one.
 * Without TTL the map holds the user values; with TTL a {@link Stamped} per user entry, so that entries expire one
 * by one (reads skip and remove expired entries; the sweep prunes the maps it visits, as for map state).
 */
final class HeapSortedMapState<UK, UV> implements SortedMapState<UK, UV> {
    private final Table table;

    HeapSortedMapState(Table table) {
        this.table = table;
    }

    /** The storage of a sorted map state: its key type and order, and a sweep that expires entries inside the maps. */
    static final class Table extends StateTable {
        final Class<?> keyType;
        final Comparator<Object> order;

        @SuppressWarnings("unchecked")
        Table(String name, HeapKeyedStateBackend backend, StateTtlConfig ttl, Class<?> keyType, Comparator<?> order) {
            super(name, backend, ttl, false);
            this.keyType = keyType;
            this.order = (Comparator<Object>) order;
        }

        @Override
        public boolean isDead(KeyTable table, int position, long now) {
            Map<?, ?> map = (Map<?, ?>) table.value(position);
            map.values().removeIf(v -> ((Stamped) v).expiry <= now);
            return map.isEmpty();
        }

        /** A restored map (of {@link Stamped} values when this state has TTL) in this state's order. */
        TreeMap<Object, Object> sorted(Map<?, ?> map) {
            TreeMap<Object, Object> sorted = new TreeMap<>(order);
            sorted.putAll(map);
            return sorted;
        }
    }

    @SuppressWarnings("unchecked")
    private TreeMap<Object, Object> map(boolean forWrite) {
        int p = table.entry(forWrite);
        return p < 0 ? null : (TreeMap<Object, Object>) table.value(p);
    }

    @Override
    @SuppressWarnings("unchecked")
    public UV get(UK key) {
        SortedKeyEncoding.check(key, table.keyType, table.name);
        TreeMap<Object, Object> map = map(false);
        if (map == null) {
            return null;
        }
        Object stored = map.get(key);
        if (stored == null || !table.hasTtl()) {
            return (UV) stored;
        }
        Stamped s = (Stamped) stored;
        long now = table.backend.clock.millis();
        if (s.expiry <= now) {
            map.remove(key);
            dropIfEmpty(map);
            return null;
        }
        if (table.refreshOnRead) {
            s.expiry = now + table.ttlMillis;
        }
        return (UV) s.value;
    }

    @Override
    public void put(UK key, UV value) {
        SortedKeyEncoding.check(key, table.keyType, table.name);
        Objects.requireNonNull(value, () -> "sorted map state '" + table.name + "' does not accept null values");
        TreeMap<Object, Object> map = map(true);
        if (map == null) {
            map = new TreeMap<>(table.order);
            table.insert(map);
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
    public void remove(UK key) {
        SortedKeyEncoding.check(key, table.keyType, table.name);
        TreeMap<Object, Object> map = map(true);
        if (map != null) {
            map.remove(key);
            dropIfEmpty(map);
        }
    }

    @Override
    public boolean contains(UK key) {
        return get(key) != null;
    }

    @Override
    public Map.Entry<UK, UV> firstEntry() {
        return first(all(), true);
    }

    @Override
    public Map.Entry<UK, UV> lastEntry() {
        return first(all(), false);
    }

    @Override
    public Map.Entry<UK, UV> floorEntry(UK key) {
        SortedKeyEncoding.check(key, table.keyType, table.name);
        TreeMap<Object, Object> map = map(false);
        return map == null ? null : first(map, map.headMap(key, true), false);
    }

    @Override
    public Map.Entry<UK, UV> ceilingEntry(UK key) {
        SortedKeyEncoding.check(key, table.keyType, table.name);
        TreeMap<Object, Object> map = map(false);
        return map == null ? null : first(map, map.tailMap(key, true), true);
    }

    @Override
    public Iterable<Map.Entry<UK, UV>> entries() {
        return range(null, null);
    }

    @Override
    public Iterable<Map.Entry<UK, UV>> range(UK fromInclusive, UK toExclusive) {
        if (fromInclusive != null) {
            SortedKeyEncoding.check(fromInclusive, table.keyType, table.name);
        }
        if (toExclusive != null) {
            SortedKeyEncoding.check(toExclusive, table.keyType, table.name);
        }
        TreeMap<Object, Object> map = map(false);
        if (map == null || (fromInclusive != null && toExclusive != null && table.order.compare(fromInclusive, toExclusive) >= 0)) {
            return List.of();
        }
        NavigableMap<Object, Object> view = map;
        if (fromInclusive != null) {
            view = view.tailMap(fromInclusive, true);
        }
        if (toExclusive != null) {
            view = view.headMap(toExclusive, false);
        }
        List<Map.Entry<UK, UV>> out = new ArrayList<>();
        long now = table.hasTtl() ? table.backend.clock.millis() : 0;
        for (Iterator<Map.Entry<Object, Object>> it = view.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<UK, UV> e = live(it, now);
            if (e != null) {
                out.add(e);
            }
        }
        dropIfEmpty(map);
        return out;
    }

    @Override
    public boolean isEmpty() {
        return firstEntry() == null;
    }

    @Override
    public void clear() {
        table.remove();
    }

    private TreeMap<Object, Object> all() {
        return map(false);
    }

    private Map.Entry<UK, UV> first(TreeMap<Object, Object> map, boolean ascending) {
        return map == null ? null : first(map, map, ascending);
    }

    /** The first live entry of {@code view} (a view of {@code map}) in the given direction; removes expired ones passed. */
    private Map.Entry<UK, UV> first(TreeMap<Object, Object> map, NavigableMap<Object, Object> view, boolean ascending) {
        long now = table.hasTtl() ? table.backend.clock.millis() : 0;
        Iterator<Map.Entry<Object, Object>> it = (ascending ? view : view.descendingMap()).entrySet().iterator();
        Map.Entry<UK, UV> found = null;
        while (found == null && it.hasNext()) {
            found = live(it, now);
        }
        dropIfEmpty(map);
        return found;
    }

    /** The iterator's next entry as a user entry, or null (and removed) when it expired; refreshes TTL on read. */
    @SuppressWarnings("unchecked")
    private Map.Entry<UK, UV> live(Iterator<Map.Entry<Object, Object>> it, long now) {
        Map.Entry<Object, Object> me = it.next();
        if (!table.hasTtl()) {
            return Map.entry((UK) me.getKey(), (UV) me.getValue());
        }
        Stamped s = (Stamped) me.getValue();
        if (s.expiry <= now) {
            it.remove();
            return null;
        }
        if (table.refreshOnRead) {
            s.expiry = now + table.ttlMillis;
        }
        return Map.entry((UK) me.getKey(), (UV) s.value);
    }

    private void dropIfEmpty(TreeMap<Object, Object> map) {
        if (map.isEmpty()) {
            table.remove();
        }
    }
}
