package io.millrace.rocksdb;

import io.millrace.runtime.state.NamespacedState;
import io.millrace.runtime.state.serde.ByteWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.function.BiConsumer;

/**
 * Namespaced state: one row per (key, namespace), its values in the backend's {@link StateCache}. The
 * {@link NamespacedState} contract lets callers change a value they got without putting it back, so
 * {@link #get} hands out the cached object and marks its entry dirty: a write-back (at eviction or before a
 * snapshot) serializes it as it is then. {@link #forEach} visits the stored rows, taking the cached value
 * where there is one, and then the cached rows RocksDB does not hold yet (the members of the key's anchor
 * not met among the stored rows). A key found without rows gets a complete anchor without members, so that
 * further visits and reads of it need no seek until it is evicted. Task thread only.
 */
final class CachedNamespacedState<N, V> implements NamespacedState<N, V> {
    private final StateColumn column;
    private final StateCache cache;
    private final RocksDbKeyedStateBackend backend;
    /** Cached values not met among the stored rows, visited after them (reused). */
    private final ArrayList<StateCache.Entry> unstored = new ArrayList<>();
    /** Rows the last uncached {@link #forEach} found in RocksDB. */
    private int storedRows;

    CachedNamespacedState(StateColumn column, StateCache cache, RocksDbKeyedStateBackend backend) {
        this.column = column;
        this.cache = cache;
        this.backend = backend;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V get(N namespace) {
        StateCache.Entry e = entry(namespace, true);
        if (e.value != null) {
            cache.markDirty(e);
        }
        return (V) e.value;
    }

    /** As {@link #get}, but the entry is not marked dirty: the caller does not change the value. */
    @Override
    @SuppressWarnings("unchecked")
    public V read(N namespace) {
        return (V) entry(namespace, true).value;
    }

    /** Null removes the namespace. The write reaches RocksDB when the entry is written back. */
    @Override
    public void put(N namespace, V value) {
        if (value == null) {
            remove(namespace);
            return;
        }
        StateCache.Entry e = entry(namespace, false);
        e.value = value;
        cache.markDirty(e);
    }

    @Override
    public void remove(N namespace) {
        StateCache.Entry e = entry(namespace, false);
        e.value = null;
        cache.markDirty(e);
    }

    /** Visits every namespace of the current key; cached values are handed out as the same objects. */
    @Override
    @SuppressWarnings("unchecked")
    public void forEach(BiConsumer<N, V> action) {
        column.requireKey();
        StateCache.Entry anchor = cache.anchor(column, backend.currentKeyBytes(), anchorHash());
        if (anchor == null) {
            storedRows = 0;
            column.scan.forEachStoredRow((key, row) -> {
                storedRows++;
                action.accept((N) column.scan.subKey(key), (V) column.decode(row));
            });
            if (storedRows == 0) {
                // remembered, so that the key's next visits and reads need no seek while it has no rows
                cache.insertEmptyAnchor(column, backend.currentKeyBytes(), anchorHash());
            }
            return;
        }
        int visit = cache.nextVisit();
        if (anchor.complete) {
            visitUnseen(anchor, visit, action);
            return;
        }
        column.scan.forEachStoredRow((key, row) -> {
            StateCache.Entry e = cache.find(column, key, key.length, StateCache.hash(StateCache.hashBytes(key, key.length), column));
            if (e == null) {
                action.accept((N) column.scan.subKey(key), (V) column.decode(row));
                return;
            }
            e.seen = visit;
            if (e.value != null) {
                action.accept((N) e.namespace, (V) e.value);
            }
        });
        visitUnseen(cache.anchor(column, backend.currentKeyBytes(), anchorHash()), visit, action);
    }

    /** Visits the members of {@code anchor} (may be null) with a value that {@code visit} did not see. */
    @SuppressWarnings("unchecked")
    private void visitUnseen(StateCache.Entry anchor, int visit, BiConsumer<N, V> action) {
        for (StateCache.Entry m = anchor == null ? null : anchor.next; m != null; m = m.next) {
            if (m.seen != visit && m.value != null) {
                unstored.add(m);
            }
        }
        try {
            for (int i = 0; i < unstored.size(); i++) {
                StateCache.Entry m = unstored.get(i);
                action.accept((N) m.namespace, (V) m.value);
            }
        } finally {
            unstored.clear();
        }
    }

    /** Deletes the current key's stored rows and marks its cached ones absent (the anchor is then complete). */
    @Override
    public void clear() {
        column.scan.deleteAll();
        StateCache.Entry anchor = cache.anchor(column, backend.currentKeyBytes(), anchorHash());
        if (anchor == null) {
            return;
        }
        anchor.complete = true;
        for (StateCache.Entry m = anchor.next; m != null; m = m.next) {
            m.value = null;
            cache.markClean(m);
            m.stored = false;
        }
    }

    /**
     * The cache entry of a namespace of the current key. On a miss, when {@code load}, the row is read from
     * RocksDB unless the key's anchor is complete; a key without an anchor gets one, complete when one seek
     * finds no stored row of the key.
     */
    private StateCache.Entry entry(N namespace, boolean load) {
        ByteWriter k = column.rowKey(namespace);
        int hash = StateCache.hash(StateCache.hashBytes(k.buffer(), k.size()), column);
        StateCache.Entry e = cache.find(column, k.buffer(), k.size(), hash);
        byte[] keyBytes = backend.currentKeyBytes();
        if (e != null) {
            e.anchor.key = keyBytes;
            return e;
        }
        byte[] key = Arrays.copyOf(k.buffer(), k.size());
        StateCache.Entry anchor = cache.anchor(column, keyBytes, anchorHash());
        boolean complete = anchor != null ? anchor.complete : !column.scan.anyStoredRow();
        Object value = load && !complete ? column.scan.readStored(key) : null;
        e = cache.insertMember(column, key, hash, namespace, keyBytes, anchorHash(), complete);
        e.value = value;
        e.stored = value != null || (!load && !complete);
        return e;
    }

    private int anchorHash() {
        return StateCache.hash(backend.currentKeyHash(), column);
    }
}
