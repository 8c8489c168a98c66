package io.millrace.rocksdb;

import io.millrace.runtime.state.NamespacedState;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Namespaced state with the state cache off ({@link CachedNamespacedState} otherwise): one row per (key,
 * namespace), under a write-back cache of the current key's values.
 * The {@link NamespacedState} contract lets callers change a value they got without putting it back, so
 * every value handed out (by get, put or forEach) stays cached, and the same object is handed out
 * again, until the backend {@linkplain #flush flushes}: when the current key changes, before whole-state
 * scans, and before snapshots. A flush re-serializes each cached value and writes it if its bytes
 * changed. Task thread only.
 */
final class RocksNamespacedState<N, V> implements NamespacedState<N, V> {
    private final StateColumn column;
    /** Values of the current key handed out or put since the last flush that cleared the cache. */
    private final HashMap<N, Cached> cache = new HashMap<>();

    /** A cached value and the bytes it had when last read or written, null when not yet stored. */
    private static final class Cached {
        Object value;
        byte[] stored;

        Cached(Object value, byte[] stored) {
            this.value = value;
            this.stored = stored;
        }
    }

    RocksNamespacedState(StateColumn column) {
        this.column = column;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V get(N namespace) {
        Cached c = cache.get(namespace);
        if (c != null) {
            return (V) c.value;
        }
        byte[] stored = column.getEncoded(namespace);
        if (stored == null) {
            return null;
        }
        Object value = column.decode(stored);
        cache.put(namespace, new Cached(value, stored));
        return (V) value;
    }

    /** Null removes the namespace. The write reaches RocksDB at the next flush. */
    @Override
    public void put(N namespace, V value) {
        if (value == null) {
            remove(namespace);
            return;
        }
        column.requireKey();
        Cached c = cache.get(namespace);
        if (c == null) {
            cache.put(namespace, new Cached(value, null));
        } else {
            c.value = value;
        }
    }

    @Override
    public void remove(N namespace) {
        cache.remove(namespace);
        column.delete(namespace);
    }

    /** Visits every namespace of the current key; cached values are handed out as the same objects. */
    @Override
    @SuppressWarnings("unchecked")
    public void forEach(BiConsumer<N, V> action) {
        flush(false);
        column.scan.forEachRow((ns, value, stored) -> {
            Cached c = cache.get(ns);
            if (c == null) {
                c = new Cached(value, stored);
                cache.put((N) ns, c);
            }
            action.accept((N) ns, (V) c.value);
        });
    }

    @Override
    public void clear() {
        cache.clear();
        column.scan.deleteAll();
    }

    /**
     * Writes cached values whose bytes changed; with {@code forget} also empties the cache (the current
     * key is about to change). Needs the key the values belong to still current.
     */
    void flush(boolean forget) {
        if (cache.isEmpty()) {
            return;
        }
        for (Iterator<Map.Entry<N, Cached>> it = cache.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<N, Cached> e = it.next();
            Cached c = e.getValue();
            byte[] now = column.encode(c.value);
            if (c.stored == null || !Arrays.equals(now, c.stored)) {
                column.putEncoded(e.getKey(), now);
                c.stored = now;
            }
            if (forget) {
                it.remove();
            }
        }
    }
}
