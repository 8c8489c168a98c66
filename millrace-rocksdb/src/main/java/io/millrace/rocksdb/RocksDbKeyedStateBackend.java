package io.millrace.rocksdb;

import io.millrace.api.state.KeyedStateStore;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.time.Clock;
import io.millrace.rocksdb.KeyGroupRows.StatePart;
import io.millrace.rocksdb.KeyGroupRows.TimerPart;
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
import io.millrace.runtime.timer.DueTimers;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    /** SST files of this backend's database already in checkpoint storage. */
    private final UploadedFiles uploaded = new UploadedFiles();
    /** Makes the names of this backend's shared files unique. */
    private final String instanceId = String.format("%016x", new SecureRandom().nextLong());
    private final RocksDbStateStore stateStore = new RocksDbStateStore(this);
    private final Map<String, Registered> states = new LinkedHashMap<>();
    private final List<StateColumn> ttlColumns = new ArrayList<>();
    private final List<RocksNamespacedState<?, ?>> namespaced = new ArrayList<>();
    private final List<RocksTimerService<?>> timerServices = new ArrayList<>();
    private final Map<String, RocksTimerService<?>> timerServicesByName = new LinkedHashMap<>();
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

    /** A state's kind (or "namespaced") and the object handed out for it. */
    private record Registered(String kind, Object state, StateColumn column) {}

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
    @SuppressWarnings("unchecked")
    public <N> InternalTimerService<N> timerService(String name, Triggerable<N> target) {
        RocksTimerService<?> existing = timerServicesByName.get(name);
        if (existing != null) {
            if (existing.target() != target) {
                throw new IllegalArgumentException("timer service '" + name + "' is already bound to another target");
            }
            return (InternalTimerService<N>) existing;
        }
        RocksTimerService<N> service = new RocksTimerService<>(name, this, timerColumn(name), timerIndex(name), clock, target);
        store.meta().put(utf8("timers:" + name), utf8("timer service"));
        restored.claimTimers(name);
        timerServicesByName.put(name, service);
        timerServices.add(service);
        return service;
    }

    /** Fires due event-time timers of all services in timestamp order, including ones registered meanwhile. */
    @Override
    public void advanceWatermark(long watermark) throws Exception {
        for (RocksTimerService<?> s : timerServices) {
            s.watermark(watermark);
        }
        DueTimers.fireEventTime(timerServices, watermark);
    }

    /** Reads the next rows of a timer queue from RocksDB when its heap cache of them is empty. */
    @Override
    public long nextEventTimerTime() {
        return DueTimers.nextEventTime(timerServices);
    }

    /** Sweeps a bounded number of rows of every TTL state, then fires due processing-time timers. */
    @Override
    public void advanceProcessingTime(long now) throws Exception {
        for (int i = 0; i < ttlColumns.size(); i++) {
            ttlColumns.get(i).sweep(now, TICK_SWEEP_ROWS);
        }
        DueTimers.fireProcessingTime(timerServices, now);
    }

    /** Counts by scanning every state's column family: exact, but O(state size); for tests and tooling. */
    @Override
    public long entryCount() {
        flushNamespaced(false);
        flushCache();
        long n = 0;
        for (Registered r : states.values()) {
            n += r.column.entryCount();
        }
        return n;
    }

    @Override
    public int eventTimeTimerCount() {
        int n = 0;
        for (RocksTimerService<?> s : timerServices) {
            n += s.eventTimerCount();
        }
        return n;
    }

    /** Live processing-time timers over all timer services. */
    public int processingTimeTimerCount() {
        int n = 0;
        for (RocksTimerService<?> s : timerServices) {
            n += s.processingTimerCount();
        }
        return n;
    }

    /** Names of the registered states, in registration order. */
    public List<String> stateNames() {
        return List.copyOf(states.keySet());
    }

    /**
     * Visits the stored (key, value) pairs of one state in one owned key group, a contiguous range of its
     * column family; for map and namespaced states the value is a (map key or namespace, value) entry.
     */
    public void forEachEntry(String stateName, int keyGroup, BiConsumer<Object, Object> action) {
        Registered r = states.get(stateName);
        if (r == null) {
            throw new IllegalArgumentException("no state named '" + stateName + "'");
        }
        flushNamespaced(false);
        flushCache();
        r.column.forEachInGroup(keyGroup, action);
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
        long n = 0;
        for (Registered r : states.values()) {
            n += store.property(r.column.bytes(), "rocksdb.total-sst-files-size");
        }
        return n;
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
     * Flushes the namespaced states' cached values and takes a RocksDB snapshot of every state and timer
     * service, restored ones not created yet included. The rows are copied by the returned snapshot's
     * {@code write}, on the writer thread.
     */
    @Override
    public KeyedStateSnapshot snapshot(long checkpointId) {
        return fullSnapshot(null);
    }

    /** {@code logicalLoader}: null for this backend's rows, else the class loader for a savepoint's canonical sections. */
    private KeyedStateSnapshot fullSnapshot(ClassLoader logicalLoader) {
        requireOpen();
        flushNamespaced(false);
        flushCache();
        return new RocksDbSnapshot(store, range, store.view(), schema.bytes(), stateParts(), timerParts(), logicalLoader, operatorName);
    }

    /**
     * A savepoint: a full snapshot in the canonical format ({@link LogicalRows}), which any backend restores. A
     * checkpoint with incremental checkpoints off: a full snapshot of this backend's rows ({@link #snapshot(long)}).
     * Otherwise an incremental one: the caches are flushed, the states' layout is stored in the metadata
     * column, and a native RocksDB checkpoint (memtables flushed, files hard-linked) is taken; the writer
     * thread uploads what is new.
     */
    @Override
    public KeyedStateSnapshot snapshot(long checkpointId, boolean savepoint) {
        if (savepoint) {
            return fullSnapshot(loader);
        }
        if (!config.incremental()) {
            return snapshot(checkpointId);
        }
        requireOpen();
        flushNamespaced(false);
        flushCache();
        StoreLayout.of(stateParts(), timerParts()).writeTo(store.meta());
        Path local = store.checkpoint("chk-" + checkpointId + "-" + instanceId);
        return new IncrementalSnapshot(local, range, uploaded, instanceId);
    }

    /**
     * Restores the files of an incremental checkpoint. One old subtask with exactly this backend's key
     * groups: its files become this backend's database (fast path), and count as uploaded. Otherwise, for
     * each old subtask, its files are opened as a temporary database, the rows of the key groups this
     * backend owns are copied, and the temporary database is closed and deleted. The schema dictionary comes
     * along: opened with the files, or its rows copied from every temporary database; the stored key shapes
     * are checked at once. Only before any state or timer service is created; restored states then wait to
     * be claimed like those of full snapshots, and are checked against the dictionary when created.
     */
    @Override
    public boolean restoreNative(long checkpointId, List<NativeKeyedState> parts, SnapshotFiles storage) throws IOException {
        requireOpen();
        for (NativeKeyedState part : parts) {
            if (!part.backend().equals(RocksDbStateBackendProvider.NAME)) {
                return false;
            }
        }
        if (!states.isEmpty() || !timerServices.isEmpty()) {
            throw new IllegalStateException("the RocksDB backend of '" + operatorName + "' restores checkpoint " + checkpointId
                    + " after states were created: restore before the operator opens");
        }
        boolean untouched = restored.unclaimedNames().isEmpty();
        if (parts.size() == 1 && parts.get(0).keyGroups().equals(range) && untouched) {
            NativeKeyedState part = parts.get(0);
            RocksDbStore opened = RocksDbStore.open(config.baseDirectory(), directoryPrefix(operatorName, range),
                    SharedMemory.acquire(config.managedMemoryBytes()), NativeRestore.download(part, storage));
            RocksDbStore empty = store;
            store = opened;
            empty.close();
            bindSchema();
            StoreLayout layout = StoreLayout.readFrom(store.meta(), NativeRestore.describe(checkpointId, part));
            schema.check(null, loader, describeKeys());
            for (StoreLayout.State s : layout.states()) {
                restored.beginState(s.name(), s.kind(), s.ttl());
            }
            for (String service : layout.timerServices()) {
                restored.beginTimers(service);
            }
            uploaded.adopt(part);
            return true;
        }
        for (NativeKeyedState part : parts) {
            int from = Math.max(part.keyGroups().start(), range.start());
            int to = Math.min(part.keyGroups().end(), range.end());
            if (from > to) {
                continue;
            }
            try (RocksDbStore old = RocksDbStore.open(config.baseDirectory(), "restore-" + directoryPrefix(operatorName, part.keyGroups()),
                    SharedMemory.acquire(config.managedMemoryBytes()), NativeRestore.download(part, storage))) {
                NativeRestore.copyRows(old, StoreLayout.readFrom(old.meta(), NativeRestore.describe(checkpointId, part)), from, to, restored);
            }
        }
        return true;
    }

    /** Every state, restored ones not created yet included, as a snapshot sees it. */
    private List<StatePart> stateParts() {
        List<StatePart> stateParts = new ArrayList<>(states.size());
        for (Map.Entry<String, Registered> e : states.entrySet()) {
            StateColumn c = e.getValue().column;
            stateParts.add(new StatePart(e.getKey(), e.getValue().kind, c.hasTtl(), c.bytes()));
        }
        restored.addUnclaimedStates(stateParts);
        return List.copyOf(stateParts);
    }

    /** Every timer service, restored ones not created yet included. */
    private List<TimerPart> timerParts() {
        List<TimerPart> timerParts = new ArrayList<>(timerServices.size());
        for (RocksTimerService<?> t : timerServices) {
            timerParts.add(new TimerPart(t.name(), timerIndex(t.name())));
        }
        restored.addUnclaimedTimers(timerParts);
        return List.copyOf(timerParts);
    }

    /** SST files this backend's incremental snapshots will not upload again; for tests. */
    int uploadedFileCount() {
        return uploaded.size();
    }

    /**
     * Loads one key group's section (see {@link KeyGroupRows}) into the column families. Meant before the
     * operator opens; states and timer services created later by name find their rows.
     */
    @Override
    public void restoreKeyGroup(int keyGroup, DataInputStream in) throws IOException {
        requireOpen();
        if (!range.contains(keyGroup)) {
            throw new IllegalArgumentException("cannot restore key group " + keyGroup + ": this backend owns key groups "
                    + rangeText(range) + " (maxParallelism " + maxParallelism + ")");
        }
        flushNamespaced(true);
        if (cache != null) {
            cache.flushAndClear();
        }
        KeyGroupRows.read(in, keyGroup, restored, loader, operatorName);
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
        ttlColumns.clear();
        namespaced.clear();
        timerServices.clear();
        timerServicesByName.clear();
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
    private String describeKeys() {
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
    private void checkSchema(String stateName) {
        schema.check(null, loader, describeKeys());
        schema.check(stateName, loader, describeState(stateName));
    }

    /**
     * Stores a row of a restored schema dictionary; a shape now used by a created state's values, or by
     * keys, is checked at once.
     */
    void restoreSchemaRow(byte[] key, byte[] value) {
        String use = schema.restore(key, value);
        if (use == null) {
            return;
        }
        int id = SchemaColumn.idOfUseRow(key);
        if (use.isEmpty()) {
            schema.check(id, true, loader, describeKeys());
        } else if (states.containsKey(use)) {
            schema.check(id, false, loader, describeState(use));
        }
    }

    /** Gets or creates a state; the same name with another kind is refused. */
    Object register(String name, String kind, boolean multiRow, StateTtlConfig ttl, Function<StateColumn, Object> factory) {
        Registered r = states.get(name);
        if (r != null) {
            if (!r.kind.equals(kind)) {
                throw new IllegalArgumentException("state '" + name + "' is already registered as " + r.kind
                        + " state, cannot register it again as " + kind + " state");
            }
            return r.state;
        }
        if (closed) {
            throw new IllegalStateException("the RocksDB backend of '" + operatorName + "' is closed");
        }
        checkSchema(name);
        boolean cached = cache != null && !multiRow && !(kind.equals("list") && ttl.enabled());
        StateColumn column = new StateColumn(name, kind, states.size(), multiRow, ttl, this, stateColumn(name), cached ? cache : null);
        store.meta().put(utf8("state:" + name), utf8(kind + ", " + ttl));
        restored.claimState(column);
        Object state = factory.apply(column);
        states.put(name, new Registered(kind, state, column));
        if (column.hasTtl()) {
            ttlColumns.add(column);
        }
        return state;
    }

    /** The created state of that name, null if none. */
    StateColumn createdState(String name) {
        Registered r = states.get(name);
        return r == null ? null : r.column;
    }

    /** The created timer service of that name, null if none. */
    RocksTimerService<?> createdTimerService(String name) {
        return timerServicesByName.get(name);
    }

    BytesColumn stateColumn(String name) {
        return store.column("state:" + name);
    }

    BytesColumn timerColumn(String service) {
        return store.column("timers:" + service);
    }

    BytesColumn timerIndex(String service) {
        return store.column("timer-groups:" + service);
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the RocksDB backend of '" + operatorName + "' is closed");
        }
    }

    /** Writes the state cache's dirty entries and the timers registered only in heap caches to RocksDB. */
    private void flushCache() {
        if (cache != null) {
            cache.flush();
        }
        for (int i = 0; i < timerServices.size(); i++) {
            timerServices.get(i).flush();
        }
    }

    private void flushNamespaced(boolean forget) {
        if (keyBytes == null) {
            return;
        }
        for (int i = 0; i < namespaced.size(); i++) {
            namespaced.get(i).flush(forget);
        }
    }

    private static String directoryPrefix(String operatorName, KeyGroupRange range) {
        String safe = operatorName.replaceAll("[^A-Za-z0-9_.-]", "_");
        if (safe.length() > 40) {
            safe = safe.substring(0, 40);
        }
        return safe + "-kg" + range.start() + "-" + range.end() + "-";
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String rangeText(KeyGroupRange r) {
        return "[" + r.start() + ", " + r.end() + "]";
    }
}
