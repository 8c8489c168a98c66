package io.millrace.rocksdb;

import io.millrace.api.state.KeyedStateStore;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.time.Clock;
import io.millrace.runtime.state.InternalTimerService;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.KeyedStateSnapshot;
import io.millrace.runtime.state.NamespacedState;
import io.millrace.runtime.state.NativeKeyedState;
import io.millrace.runtime.state.SnapshotFiles;
import io.millrace.runtime.state.Triggerable;
import io.millrace.runtime.state.serde.ByteWriter;
import io.millrace.runtime.state.serde.StateSerializer;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.rocksdb.WriteBatch;

/**
 * Keyed state and timers of one operator subtask in RocksDB, so state can be larger than memory. Three
 * layers: a {@link RocksDbStore} of bytes (one RocksDB instance in its own directory, one column family
 * per state or timer service), {@link StateColumn}s that add serialization, key-group-prefixed row keys
 * and TTL, and typed state objects on top. {@link #setCurrentKey} serializes the key once, prefixed by
 * its key group; every access then uses those bytes. Value, reducing, aggregating and namespaced state go
 * through a {@link StateCache} of deserialized values ({@link RocksDbConfig#cacheEntries}), which every
 * snapshot and whole-state scan flushes first; list appends are RocksDB merges.
 *
 * <p>Checkpoints: {@link #snapshot} flushes the write-back caches (state cache, timers) and takes a RocksDB snapshot
 * (a short pause); the rows are copied per key group on the writer thread ({@link RocksDbSnapshot},
 * format in {@link KeyGroupRows}). {@link #restoreKeyGroup} writes a section's rows straight into the
 * column families ({@link RestoredRows}); a state restored before the operator creates it by name keeps
 * its rows there (and in later snapshots) until it is created, which checks the kind and converts rows
 * if TTL was switched on or off since.
 *
 * <p>Incremental checkpoints ({@link RocksDbConfig#incremental}, not savepoints): {@link #snapshot(long, boolean)}
 * flushes the caches, records the {@link StoreLayout} and takes a native RocksDB checkpoint (hard links);
 * the writer thread uploads only the SST files this backend has not uploaded before
 * ({@link IncrementalSnapshot}). {@link #restoreNative} opens the checkpoint's files as the database when
 * they hold exactly this backend's key groups, and otherwise copies the rows of the owned key groups out
 * of a temporary database per old subtask.
 *
 * <p>Lifecycle: OPEN → CLOSED; {@link #close} is idempotent, frees every native resource and deletes the
 * working directory. Single-threaded: only the task thread that owns the operator calls it (close may
 * come from another thread once that task has stopped).
 */
public final class RocksDbKeyedStateBackend implements KeyedStateBackend {
    /** Rows each TTL state's sweep visits on every processing-time tick. */
    static final int TICK_SWEEP_ROWS = 4096;

    final Clock clock;
    /** Resolves user classes when stored values are read: the context class loader at construction. */
    final ClassLoader loader = StateSerializer.userClassLoader();
    private final String operatorName;
    private final KeyGroupRange range;
    private final int maxParallelism;
    private final RocksDbConfig config;
    /** Replaced once, by a restore of a checkpoint's files before the operator opens. */
    private RocksDbStore store;
    /** Snapshots and restores of this backend's state. */
    private final RocksDbCheckpoints checkpoints = new RocksDbCheckpoints(this);
    private final RocksDbStateStore stateStore = new RocksDbStateStore(this);
    private final RocksStates states = new RocksStates(this);
    private final List<RocksNamespacedState<?, ?>> namespaced = new ArrayList<>();
    private final RocksTimerServices timerServices = new RocksTimerServices(this);
    /** Restored states and timer services no operator has created yet. */
    private final RestoredRows restored = new RestoredRows(this);
    /**
     * The shapes of stored records and enums, in the reserved column family of {@link #store}; bound anew
     * ({@link #bindSchema}) whenever the store is replaced.
     */
    SchemaColumn schema;
    /** Serializes keys, namespaces and map keys canonically (equal values, equal bytes); writes to {@link #schema}. */
    StateSerializer keys;
    private final ByteWriter keyScratch = new ByteWriter(64);
    private final ByteWriter valueScratch = new ByteWriter(256);
    private final ByteWriter keyEncoder = new ByteWriter(64);
    /** The write-back cache of value, reducing and aggregating states; null when configured off. */
    private final StateCache cache;

    /** The current key and its bytes {@code [key group][key]}; both null when there is none. */
    private Object key;
    private byte[] keyBytes;
    /** Hash of {@link #keyBytes}, for the cache. */
    private int keyHash;
    private int keyGroup = -1;
    private boolean closed;

    public RocksDbKeyedStateBackend(String operatorName, KeyGroupRange range, int maxParallelism, Clock clock, RocksDbConfig config) {
        if (range.end() >= maxParallelism) {
            throw new IllegalArgumentException("key group range " + rangeText(range) + " exceeds maxParallelism " + maxParallelism);
        }
        if (maxParallelism > 1 << 15) {
            throw new IllegalArgumentException("maxParallelism " + maxParallelism + " exceeds 32768, the most key groups a 2-byte prefix holds");
        }
        this.operatorName = operatorName;
        this.range = range;
        this.maxParallelism = maxParallelism;
        this.clock = clock;
        this.config = config;
        this.store = RocksDbStore.open(config.baseDirectory(), directoryPrefix(operatorName, range),
                SharedMemory.acquire(config.managedMemoryBytes()));
        this.cache = config.cacheEntries() == 0 ? null : new StateCache(this, config.cacheEntries());
        bindSchema();
    }

    /**
     * Sets the current key; null clears it (state and timers then refuse access). Fails with the key, its
     * group and the owned range when this subtask does not own the key's group. Changing the key flushes
     * the namespaced states' write-back caches.
     */
    @Override
    public void setCurrentKey(Object newKey) {
        if (!sameKey(newKey)) {
            changeKey(newKey, KeyGroups.keyGroupFor(newKey, maxParallelism));
        }
    }

    /** Like {@link #setCurrentKey(Object)}, with the key group the caller computed for the key. */
    @Override
    public void setCurrentKey(Object newKey, int group) {
        if (!sameKey(newKey)) {
            changeKey(newKey, group);
        }
    }

    /** Whether {@code newKey} is the current key (then it becomes the current key object); null never is. */
    private boolean sameKey(Object newKey) {
        if (newKey == key) {
            return true;
        }
        if (newKey == null) {
            flushNamespaced(true);
            key = null;
            keyBytes = null;
            keyGroup = -1;
            return true;
        }
        if (key != null && newKey.equals(key) && newKey.getClass() == key.getClass()) {
            key = newKey;
            return true;
        }
        return false;
    }

    private void changeKey(Object newKey, int group) {
        if (!range.contains(group)) {
            throw new IllegalArgumentException("key '" + newKey + "' is in key group " + group
                    + ", outside this subtask's key groups " + rangeText(range) + " (maxParallelism " + maxParallelism
                    + "): the input is not partitioned by this key");
        }
        flushNamespaced(true);
        keyEncoder.reset();
        keyEncoder.writeShort(group);
        keys.write(newKey, keyEncoder);
        key = newKey;
        keyBytes = keyEncoder.toByteArray();
        keyHash = Arrays.hashCode(keyBytes);
        keyGroup = group;
    }

    @Override
    public Object currentKey() {
        return key;
    }

    @Override
    public int currentKeyGroup() {
        return keyGroup;
    }

    @Override
    public KeyGroupRange keyGroupRange() {
        return range;
    }

    @Override
    public int maxParallelism() {
        return maxParallelism;
    }

    @Override
    public KeyedStateStore stateStore() {
        return stateStore;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <N, V> NamespacedState<N, V> namespacedState(String name) {
        return (NamespacedState<N, V>) register(name, "namespaced", true, StateTtlConfig.DISABLED, c -> {
            if (cache != null) {
                return new CachedNamespacedState<N, V>(c, cache, this);
            }
            RocksNamespacedState<N, V> s = new RocksNamespacedState<>(c);
            namespaced.add(s);
            return s;
        });
    }

    @Override
    public <N> InternalTimerService<N> timerService(String name, Triggerable<N> target) {
        return timerServices.service(name, target);
    }

    /** Fires due event-time timers of all services in timestamp order, including ones registered meanwhile. */
    @Override
    public void advanceWatermark(long watermark) throws Exception {
        timerServices.advanceWatermark(watermark);
    }

    /** Reads the next rows of a timer queue from RocksDB when its heap cache of them is empty. */
    @Override
    public long nextEventTimerTime() {
        return timerServices.nextEventTimerTime();
    }

    /** Sweeps a bounded number of rows of every TTL state, then fires due processing-time timers. */
    @Override
    public void advanceProcessingTime(long now) throws Exception {
        states.sweep(now, TICK_SWEEP_ROWS);
        timerServices.advanceProcessingTime(now);
    }

    /** Counts by scanning every state's column family: exact, but O(state size); for tests and tooling. */
    @Override
    public long entryCount() {
        flushNamespaced(false);
        flushCache();
        return states.entryCount();
    }

    @Override
    public int eventTimeTimerCount() {
        return timerServices.eventTimerCount();
    }

    /** Live processing-time timers over all timer services. */
    public int processingTimeTimerCount() {
        return timerServices.processingTimerCount();
    }

    /** Names of the registered states, in registration order. */
    public List<String> stateNames() {
        return states.names();
    }

    /**
     * Visits the stored (key, value) pairs of one state in one owned key group, a contiguous range of its
     * column family; for map and namespaced states the value is a (map key or namespace, value) entry.
     */
    @Override
    public void forEachEntry(String stateName, int keyGroup, BiConsumer<Object, Object> action) {
        flushNamespaced(false);
        flushCache();
        states.forEachInGroup(stateName, keyGroup, action);
    }

    /** Writes every cached value to RocksDB: the namespaced states' of the current key and the state cache's dirty ones. */
    public void flush() {
        flushNamespaced(false);
        flushCache();
    }

    /** The working directory of this backend's RocksDB instance. */
    public Path directory() {
        return store.directory();
    }

    /** Bytes of the working directory's files (SST files, manifest, logs). */
    public long diskBytes() {
        return store.diskBytes();
    }

    /** Bytes of the SST files of all states (excluding memtables and logs), as RocksDB reports them. */
    public long sstBytes() {
        return states.sstBytes(store);
    }

    /**
     * Bytes in use of the managed memory shared with every backend of the same setting: cached blocks,
     * index and filter blocks, and the write buffers charged to the cache.
     */
    public long managedMemoryUsage() {
        return store.memory().cache().getUsage();
    }

    /** Flushes memtables and compacts all column families, so deleted rows leave the disk; for tests and tooling. */
    public void compact() {
        flushNamespaced(false);
        flushCache();
        store.compactAll();
    }

    /** The name of the operator this backend keeps state for. */
    public String operatorName() {
        return operatorName;
    }

    /**
     * A full snapshot of this backend's rows; the rows are copied by the returned snapshot's {@code write}, on
     * the writer thread. See {@link RocksDbCheckpoints}.
     */
    @Override
    public KeyedStateSnapshot snapshot(long checkpointId) {
        return checkpoints.fullSnapshot(null);
    }

    /** A savepoint in the canonical format, a full or an incremental checkpoint; see {@link RocksDbCheckpoints}. */
    @Override
    public KeyedStateSnapshot snapshot(long checkpointId, boolean savepoint) {
        return checkpoints.snapshot(checkpointId, savepoint);
    }

    @Override
    public boolean restoreNative(long checkpointId, List<NativeKeyedState> parts, SnapshotFiles storage) throws IOException {
        return checkpoints.restoreNative(checkpointId, parts, storage);
    }

    @Override
    public void restoreKeyGroup(int keyGroup, DataInputStream in) throws IOException {
        checkpoints.restoreKeyGroup(keyGroup, in);
    }

    /** SST files this backend's incremental snapshots will not upload again; for tests. */
    int uploadedFileCount() {
        return checkpoints.uploadedFileCount();
    }

    /** Whether any state or timer service was created. */
    boolean anyCreated() {
        return !states.isEmpty() || !timerServices.isEmpty();
    }

    /** The store, replaced once by a restore of a checkpoint's files. */
    RocksDbStore store() {
        return store;
    }

    /** Makes {@code opened} this backend's store, closes the previous one and binds the schema dictionary anew. */
    void replaceStore(RocksDbStore opened) {
        RocksDbStore empty = store;
        store = opened;
        empty.close();
        bindSchema();
    }

    /** Restored states and timer services no operator has created yet. */
    RestoredRows restored() {
        return restored;
    }

    RocksStates states() {
        return states;
    }

    RocksTimerServices timers() {
        return timerServices;
    }

    /**
     * Writes the cached values to RocksDB: the namespaced states' and the state cache's dirty ones; with
     * {@code clearCache} (before rows are restored behind the caches' back) both caches also forget them.
     */
    void flushForSnapshot(boolean clearCache) {
        if (clearCache) {
            flushNamespaced(true);
            if (cache != null) {
                cache.flushAndClear();
            }
        } else {
            flushNamespaced(false);
            flushCache();
        }
    }

    @Override
    public Set<String> unclaimedRestoredNames() {
        return restored.unclaimedNames();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        restored.clear();
        if (cache != null) {
            cache.close();
        }
        states.clear();
        namespaced.clear();
        timerServices.clear();
        key = null;
        keyBytes = null;
        keyGroup = -1;
        store.close();
    }

    // ---- for the layers above the store

    /** The current key's bytes, or a clear failure naming the state when there is none. */
    byte[] requireKeyBytes(StateColumn column) {
        byte[] k = keyBytes;
        if (k == null) {
            throw new IllegalStateException(column.kind + " state '" + column.name
                    + "' needs a current key: keyed state is only available while processing a keyed record or timer");
        }
        return k;
    }

    /** The current key's bytes {@code [key group][key]}, null when there is none. */
    byte[] currentKeyBytes() {
        return keyBytes;
    }

    /** Hash of the current key's bytes; meaningful while there is a current key. */
    int currentKeyHash() {
        return keyHash;
    }

    /** Applies the state cache's batch of write-backs to the store. */
    void write(WriteBatch batch) {
        store.write(batch);
    }

    RocksDbConfig config() {
        return config;
    }

    /** The state cache, null when off; for tests. */
    StateCache cache() {
        return cache;
    }

    ByteWriter keyScratch() {
        return keyScratch;
    }

    ByteWriter valueScratch() {
        return valueScratch;
    }

    /** Names this operator's keys in errors, e.g. {@code the keys of operator 'sum'}. */
    String describeKeys() {
        return "the keys of operator '" + operatorName + "'";
    }

    /**
     * Binds the schema dictionary and the key serializer to the {@code schema} column family of the current
     * store: at construction, and when a restore replaces the store (no state exists then, so no
     * {@link StateColumn} holds the previous dictionary).
     */
    private void bindSchema() {
        schema = new SchemaColumn(store.column(SchemaColumn.COLUMN));
        keys = StateSerializer.forKeys(schema, loader, describeKeys());
    }

    /** Names a state and this operator in errors, e.g. {@code state 'totals' of operator 'sum'}. */
    String describeState(String stateName) {
        return "state '" + stateName + "' of operator '" + operatorName + "'";
    }

    /**
     * Fails with a {@link io.millrace.runtime.state.serde.StateSchemaException} unless the stored keys and
     * the stored values of {@code stateName} can be read with the classes as they are now.
     */
    void checkSchema(String stateName) {
        schema.check(null, loader, describeKeys());
        schema.check(stateName, loader, describeState(stateName));
    }

    /** Gets or creates a state; the same name with another kind is refused. */
    Object register(String name, String kind, boolean multiRow, StateTtlConfig ttl, Function<StateColumn, Object> factory) {
        return states.register(name, kind, multiRow, ttl, cache, factory);
    }

    /** The created state of that name, null if none. */
    StateColumn createdState(String name) {
        return states.created(name);
    }

    BytesColumn stateColumn(String name) {
        return store.column("state:" + name);
    }

    void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the RocksDB backend of '" + operatorName + "' is closed");
        }
    }

    /** Writes the state cache's dirty entries and the timers registered only in heap caches to RocksDB. */
    private void flushCache() {
        if (cache != null) {
            cache.flush();
        }
        timerServices.flush();
    }

    private void flushNamespaced(boolean forget) {
        if (keyBytes == null) {
            return;
        }
        for (int i = 0; i < namespaced.size(); i++) {
            namespaced.get(i).flush(forget);
        }
    }

    static String directoryPrefix(String operatorName, KeyGroupRange range) {
        String safe = operatorName.replaceAll("[^A-Za-z0-9_.-]", "_");
        if (safe.length() > 40) {
            safe = safe.substring(0, 40);
        }
        return safe + "-kg" + range.start() + "-" + range.end() + "-";
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String rangeText(KeyGroupRange r) {
        return "[" + r.start() + ", " + r.end() + "]";
    }
}
