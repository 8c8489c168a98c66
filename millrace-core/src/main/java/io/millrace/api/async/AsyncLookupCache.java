package io.millrace.api.async;

import io.millrace.api.functions.JoinFunction;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.functions.RichFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An {@link AsyncFunction} that enriches each record with what a lookup by its key returns, and keeps recent
 * answers per key so that the external system is asked once per key and period instead of once per record:
 *
 * <pre>{@code
 * AsyncLookupCache.of(Reading::machine, assetService, (reading, asset) -> new Enriched(reading, asset))
 *         .maxEntries(10_000).expireAfterWrite(Duration.ofMinutes(5));
 * }</pre>
 *
 * For each record, {@code key} gives the lookup key; on a hit the cached values are used at once, on a miss
 * {@code lookup} is asked and its answer is stored (also an empty one, unless {@link #cacheEmptyResults(boolean)}
 * says otherwise). {@code join} is called once per value found, or once with {@code null} when the lookup found
 * none; a {@code null} result is not emitted. On a miss {@code join} runs on the thread that delivers the lookup's
 * answer, on a hit on the task thread.
 *
 * <p>The cache is per subtask, in memory, and not checkpointed: after a recovery it starts empty. Entries expire
 * {@link #expireAfterWrite} after they were stored, on the pipeline's clock; beyond {@link #maxEntries} the least
 * recently used entry goes. Misses of one key that are in flight at the same time each ask the lookup. Errors are
 * not cached. A lookup that also implements {@link RichFunction} is opened and closed with this function.
 */
public final class AsyncLookupCache<IN, K, V, OUT> implements AsyncFunction<IN, OUT>, RichFunction {
    private static final long serialVersionUID = 1L;

    private final KeySelector<IN, K> key;
    private final AsyncFunction<K, V> lookup;
    private final JoinFunction<IN, V, OUT> join;
    private final int maxEntries;
    private final long ttlMillis;
    private final boolean cacheEmpty;

    private transient Map<K, Entry<V>> entries;
    private transient Clock clock;
    private transient AtomicLong hits;
    private transient AtomicLong misses;

    private record Entry<V>(List<V> values, long storedAt) {}

    private AsyncLookupCache(KeySelector<IN, K> key, AsyncFunction<K, V> lookup, JoinFunction<IN, V, OUT> join, int maxEntries, long ttlMillis,
            boolean cacheEmpty) {
        this.key = key;
        this.lookup = lookup;
        this.join = join;
        this.maxEntries = maxEntries;
        this.ttlMillis = ttlMillis;
        this.cacheEmpty = cacheEmpty;
    }

    /** A cache of at most 10 000 entries that never expire, empty answers cached too; see the class comment. */
    public static <IN, K, V, OUT> AsyncLookupCache<IN, K, V, OUT> of(KeySelector<IN, K> key, AsyncFunction<K, V> lookup,
            JoinFunction<IN, V, OUT> join) {
        return new AsyncLookupCache<>(Objects.requireNonNull(key, "key"), Objects.requireNonNull(lookup, "lookup"),
                Objects.requireNonNull(join, "join"), 10_000, Long.MAX_VALUE, true);
    }

    /** Keeps at most {@code maxEntries} keys per subtask; the least recently used goes first. */
    public AsyncLookupCache<IN, K, V, OUT> maxEntries(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("lookup cache max entries must be at least 1, not " + maxEntries);
        }
        return new AsyncLookupCache<>(key, lookup, join, maxEntries, ttlMillis, cacheEmpty);
    }

    /** An entry is used for {@code ttl} after it was stored, then asked again. */
    public AsyncLookupCache<IN, K, V, OUT> expireAfterWrite(Duration ttl) {
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("lookup cache time-to-live must be positive, not " + ttl);
        }
        return new AsyncLookupCache<>(key, lookup, join, maxEntries, ttl.toMillis(), cacheEmpty);
    }

    /** Whether an answer with no value (the key is unknown) is cached like the others; yes by default. */
    public AsyncLookupCache<IN, K, V, OUT> cacheEmptyResults(boolean cache) {
        return new AsyncLookupCache<>(key, lookup, join, maxEntries, ttlMillis, cache);
    }

    @Override
    public void open(RuntimeContext context) throws Exception {
        clock = context.clock();
        hits = new AtomicLong();
        misses = new AtomicLong();
        entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, Entry<V>> eldest) {
                return size() > maxEntries;
            }
        };
        if (lookup instanceof RichFunction rich) {
            rich.open(context);
        }
    }

    @Override
    public void close() throws Exception {
        if (lookup instanceof RichFunction rich) {
            rich.close();
        }
    }

    @Override
    public void asyncInvoke(IN input, ResultFuture<OUT> result) throws Exception {
        if (entries == null) {
            throw new IllegalStateException("the lookup cache was not opened: apply it with AsyncDataStream");
        }
        K k = key.getKey(input);
        Entry<V> cached;
        long now = clock.millis();
        synchronized (entries) {
            cached = entries.get(k);
            if (cached != null && now - cached.storedAt() >= ttlMillis) {
                entries.remove(k);
                cached = null;
            }
        }
        if (cached != null) {
            hits.incrementAndGet();
            result.complete(joined(input, cached.values()));
            return;
        }
        misses.incrementAndGet();
        lookup.asyncInvoke(k, new ResultFuture<V>() {
            @Override
            public boolean complete(Collection<V> values) {
                List<V> copy = List.copyOf(values);
                if (!copy.isEmpty() || cacheEmpty) {
                    long storedAt = clock.millis();
                    synchronized (entries) {
                        entries.put(k, new Entry<>(copy, storedAt));
                    }
                }
                List<OUT> out;
                try {
                    out = joined(input, copy);
                } catch (Exception e) {
                    return result.completeExceptionally(e);
                }
                return result.complete(out);
            }

            @Override
            public boolean completeExceptionally(Throwable error) {
                return result.completeExceptionally(error);
            }
        });
    }

    private List<OUT> joined(IN input, List<V> values) throws Exception {
        List<OUT> out = new ArrayList<>(Math.max(1, values.size()));
        if (values.isEmpty()) {
            OUT r = join.join(input, null);
            if (r != null) {
                out.add(r);
            }
        }
        for (V v : values) {
            OUT r = join.join(input, v);
            if (r != null) {
                out.add(r);
            }
        }
        return out;
    }

    /** Records of this subtask answered from the cache so far. */
    public long hits() {
        return hits == null ? 0 : hits.get();
    }

    /** Records of this subtask for which the lookup was asked so far. */
    public long misses() {
        return misses == null ? 0 : misses.get();
    }

    /** Keys held now. */
    public int size() {
        if (entries == null) {
            return 0;
        }
        synchronized (entries) {
            return entries.size();
        }
    }
}
