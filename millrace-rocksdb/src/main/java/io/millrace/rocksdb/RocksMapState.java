package io.millrace.rocksdb;

import io.millrace.api.state.MapState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Map state: one row per (key, map key), so a map can be larger than memory and each entry has its own
 * TTL. {@link #entries()} is a snapshot in map-key byte order.
 */
final class RocksMapState<UK, UV> implements MapState<UK, UV> {
    private final StateColumn column;

    RocksMapState(StateColumn column) {
        this.column = column;
    }

    @Override
    @SuppressWarnings("unchecked")
    public UV get(UK key) {
        return (UV) column.get(key, false);
    }

    @Override
    public void put(UK key, UV value) {
        Objects.requireNonNull(key, () -> "map state '" + column.name + "' does not accept null keys");
        Objects.requireNonNull(value, () -> "map state '" + column.name + "' does not accept null values");
        column.put(key, value);
    }

    @Override
    public void remove(UK key) {
        column.delete(key);
    }

    @Override
    public boolean contains(UK key) {
        return get(key) != null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Iterable<Map.Entry<UK, UV>> entries() {
        List<Map.Entry<UK, UV>> out = new ArrayList<>();
        column.scan.forEachRow((k, v, encoded) -> out.add(Map.entry((UK) k, (UV) v)));
        return out;
    }

    @Override
    public boolean isEmpty() {
        return !column.scan.anyRow();
    }

    @Override
    public void clear() {
        column.scan.deleteAll();
    }
}
