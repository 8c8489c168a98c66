package io.millrace.runtime.state.heap;

import io.millrace.api.state.KeyedStateStore;
import io.millrace.api.state.StateTtlConfig;
import io.millrace.api.time.Clock;
import io.millrace.runtime.state.InternalTimerService;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyGroups;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.KeyedStateSnapshot;
import io.millrace.runtime.state.NamespacedState;
import io.millrace.runtime.state.Triggerable;
import io.millrace.runtime.state.heap.KeyGroupSection.StateRef;
import io.millrace.runtime.timer.DueTimers;
import io.millrace.runtime.timer.HeapTimerService;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Keyed state and timers of one operator subtask, on the Java heap. Each state is a
 * {@link StateTable}: one hash table per owned key group, so that state can later be snapshotted,
 * restored and moved between subtasks one key group at a time. {@link #setCurrentKey} computes the
 * key's group and hash once; every state access then reads the tables of that group.
 *
 * <p>Checkpoints: {@link #snapshot} captures lazily, one key group at a time ({@link HeapSnapshot}), in
 * the self-describing per-group format of {@link KeyGroupSection}; {@link #restoreKeyGroup} reads such a
 * section from a backend of any parallelism and keeps its states and timers by name until the operator
 * creates them (unclaimed ones are carried into later snapshots).
 *
 * <p>Single-threaded: only the task thread that owns the operator calls it (a snapshot's {@code write}
 * may run elsewhere).
 */
public final class HeapKeyedStateBackend implements KeyedStateBackend {
    final Clock clock;
    /** Named in restore failures; null when unknown. */
    private final String operatorName;
    /** How value, list, reducing and aggregating state keep their values ({@code state.heap.values}). */
    private final HeapValues values;
    /** Makes each such state's decisions under {@link HeapValues#AUTO}. */
    private final Supplier<AutoValues> autoValues;
    private final KeyGroupRange range;
    private final int maxParallelism;
    private final HeapStateStore store = new HeapStateStore(this);
    private final Map<String, Registered> states = new LinkedHashMap<>();
    /** The tables of {@link #states} as an array, for {@link #readAhead} (once per timer fired). */
    private StateTable[] tables = new StateTable[0];
    /** States kept by operators in their own layout, checkpointed here; see {@link GroupedState}. */
    private final Map<String, GroupedState> groupedStates = new LinkedHashMap<>();
    private final List<StateTable> ttlTables = new ArrayList<>();
    private final List<HeapTimerService<?>> timerServices = new ArrayList<>();
    private final Map<String, HeapTimerService<?>> timerServicesByName = new LinkedHashMap<>();
    /** Restored states and timers not yet claimed by name; they move into tables and services when created. */
    private final RestoredSections restored;

    /** The latest snapshot while some of its key groups are not captured yet; see {@link HeapSnapshot}. */
    private HeapSnapshot pending;

    /** The current key, null when none. */
    private Object key;
    /**
     * The current key's hashCode, computed on first use by a state ({@link #keyHash()}): a window firing or a
     * record that reads no keyed state never touches the key object. Valid while {@link #keyHashKnown}.
     */
    private int keyHash;
    private boolean keyHashKnown;
    /** The current key's group's index in the tables ({@code group - range.start()}). */
    int groupIndex = -1;

    /** A backend for an unnamed operator, values kept as objects. */
    public HeapKeyedStateBackend(KeyGroupRange range, int maxParallelism, Clock clock) {
        this(null, range, maxParallelism, clock);
    }

    /** A backend whose restore failures name {@code operatorName} (null when unknown); values kept as objects. */
    public HeapKeyedStateBackend(String operatorName, KeyGroupRange range, int maxParallelism, Clock clock) {
        this(operatorName, range, maxParallelism, clock, false);
    }

    /**
     * With {@code serializedValues} ({@code state.heap.values: serialized}), value, list, reducing and aggregating
     * state keep their values encoded in large byte arrays ({@link ValueArena}) rather than as objects: a read
     * decodes a copy, as with RocksDB, and young collections copy none of it. Map state keeps objects.
     */
    public HeapKeyedStateBackend(String operatorName, KeyGroupRange range, int maxParallelism, Clock clock,
            boolean serializedValues) {
        this(operatorName, range, maxParallelism, clock, serializedValues ? HeapValues.SERIALIZED : HeapValues.OBJECTS);
    }

    /** A backend keeping values as {@code values} says ({@code state.heap.values}). */
    public HeapKeyedStateBackend(String operatorName, KeyGroupRange range, int maxParallelism, Clock clock, HeapValues values) {
        this(operatorName, range, maxParallelism, clock, values, AutoValues::new);
    }

    /** For tests: {@code autoValues} makes the decisions of each state under {@code state.heap.values: auto}. */
    HeapKeyedStateBackend(String operatorName, KeyGroupRange range, int maxParallelism, Clock clock, HeapValues values,
            Supplier<AutoValues> autoValues) {
        if (range.end() >= maxParallelism) {
            throw new IllegalArgumentException("key group range " + rangeText(range) + " exceeds maxParallelism " + maxParallelism);
        }
        this.operatorName = operatorName;
        this.restored = new RestoredSections(operatorName);
        this.values = values;
        this.autoValues = autoValues;
        this.range = range;
        this.maxParallelism = maxParallelism;
        this.clock = clock;
    }

    /** A state's kind (or "namespaced") and the object handed out for it. */
    private record Registered(String kind, Object state, StateTable table) {}

    /**
     * Sets the current key; null clears it (state and timers then refuse access, for example while a
     * broadcast record is processed). Fails with the key, its group and the owned range when this
     * subtask does not own the key's group.
     */
    @Override
    public void setCurrentKey(Object newKey) {
        if (newKey == null) {
            key = null;
            groupIndex = -1;
            return;
        }
        if (newKey == key) {
            return;
        }
        setKeyInGroup(newKey, KeyGroups.keyGroupFor(newKey, maxParallelism));
    }

    @Override
    public void setCurrentKey(Object newKey, int group) {
        if (newKey == key || newKey == null) {
            setCurrentKey(newKey);
            return;
        }
        setKeyInGroup(newKey, group);
    }

    private void setKeyInGroup(Object newKey, int group) {
        if (!range.contains(group)) {
            throw new IllegalArgumentException("key '" + newKey + "' is in key group " + group
                    + ", outside this subtask's key groups " + rangeText(range) + " (maxParallelism " + maxParallelism
                    + "): the input is not partitioned by this key");
        }
        key = newKey;
        keyHashKnown = false;
        groupIndex = group - range.start();
        if (pending != null) {
            pending.beforeChange(groupIndex);
        }
    }

    /** Called before a change to a group other than the current key's (the TTL sweep). */
    void beforeChange(int index) {
        if (pending != null) {
            pending.beforeChange(index);
        }
    }

    /** Whether value, list, reducing and aggregating state keep their values encoded ({@code state.heap.values: serialized}). */
    public boolean serializedValues() {
        return values == HeapValues.SERIALIZED;
    }

    /** How value, list, reducing and aggregating state keep their values ({@code state.heap.values}). */
    public HeapValues values() {
        return values;
    }

    /** "operator 'name'", or "a heap backend" when the operator is unknown: for log lines. */
    String operatorLabel() {
        return operatorName != null ? "operator '" + operatorName + "'" : "a heap backend";
    }

    /** Stops guarding changes once the pending snapshot has captured every group. */
    private void dropSettledSnapshot() {
        if (pending != null && pending.settled()) {
            pending = null;
        }
    }

    /** Captures what the pending snapshot has not yet, on this thread, before state changes wholesale. */
    private void settlePendingSnapshot() {
        if (pending != null) {
            pending.captureAll();
            pending = null;
        }
    }

    /** Reads ahead the key and its entry in every state table (the slot, the entry, its value); returns 0. */
    @Override
    public int readAhead(Object key, int keyGroup) {
        if (key == null || !range.contains(keyGroup)) {
            return 0;
        }
        int index = keyGroup - range.start();
        int hash = key.hashCode();
        int n = 0;
        for (StateTable t : tables) {
            n += t.readAhead(index, hash);
        }
        return n;
    }

    @Override
    public Object currentKey() {
        return key;
    }

    @Override
    public int currentKeyGroup() {
        return key == null ? -1 : groupIndex + range.start();
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
        return store;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <N, V> NamespacedState<N, V> namespacedState(String name) {
        return (NamespacedState<N, V>) register(name, "namespaced", StateTtlConfig.DISABLED,
                t -> new HeapNamespacedState<>(t));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <N> InternalTimerService<N> timerService(String name, Triggerable<N> target) {
        HeapTimerService<?> existing = timerServicesByName.get(name);
        if (existing != null) {
            if (existing.target() != target) {
                throw new IllegalArgumentException("timer service '" + name + "' is already bound to another target");
            }
            return (InternalTimerService<N>) existing;
        }
        HeapTimerService<N> service = new HeapTimerService<>(name, this, clock, target);
        timerServicesByName.put(name, service);
        timerServices.add(service);
        restored.claimTimers(service);
        return service;
    }

    /**
     * Registers a state that the operator keeps in its own layout; checkpoints then write it per key group
     * with the other states, and what a restore read under this name is handed to it now (and later restores
     * at once). Fails when the name is taken, or was checkpointed as another kind of state, and with a
     * {@link io.millrace.runtime.state.serde.StateSchemaException} naming the state and operator when a
     * stored type does not fit the classes as they are now.
     */
    public void registerGroupedState(String name, GroupedState state) {
        if (states.containsKey(name) || groupedStates.containsKey(name)) {
            throw new IllegalArgumentException("state '" + name + "' is already registered");
        }
        groupedStates.put(name, state);
        restored.claimGrouped(name, state, range);
    }

    /** Fires due event-time timers of all services in timestamp order, including ones registered meanwhile. */
    @Override
    public void advanceWatermark(long watermark) throws Exception {
        dropSettledSnapshot();
        for (HeapTimerService<?> s : timerServices) {
            s.watermark(watermark);
        }
        DueTimers.fireEventTime(timerServices, watermark);
    }

    @Override
    public long nextEventTimerTime() {
        return DueTimers.nextEventTime(timerServices);
    }

    /** Sweeps a bounded number of entries of every TTL state, then fires due processing-time timers. */
    @Override
    public void advanceProcessingTime(long now) throws Exception {
        dropSettledSnapshot();
        for (int i = 0; i < ttlTables.size(); i++) {
            ttlTables.get(i).sweep(now, StateTable.TICK_SWEEP_STEPS);
        }
        DueTimers.fireProcessingTime(timerServices, now);
    }

    @Override
    public long entryCount() {
        long n = 0;
        for (Registered r : states.values()) {
            n += r.table.size();
        }
        for (GroupedState g : groupedStates.values()) {
            n += g.entryCount();
        }
        return n;
    }

    @Override
    public int eventTimeTimerCount() {
        int n = 0;
        for (HeapTimerService<?> s : timerServices) {
            n += s.eventTimerCount();
        }
        return n;
    }

    /** Live processing-time timers over all timer services. */
    public int processingTimeTimerCount() {
        int n = 0;
        for (HeapTimerService<?> s : timerServices) {
            n += s.processingTimerCount();
        }
        return n;
    }

    /** Names of the registered states, in registration order. */
    public List<String> stateNames() {
        return List.copyOf(states.keySet());
    }

    /** Visits the stored (key, value) pairs of one state in one owned key group. */
    @Override
    public void forEachEntry(String stateName, int keyGroup, BiConsumer<Object, Object> action) {
        Registered r = states.get(stateName);
        if (r == null) {
            throw new IllegalArgumentException("no state named '" + stateName + "'");
        }
        r.table.forEachInGroup(keyGroup, action);
    }

    /**
     * Takes a snapshot of every state and timer of every owned key group. The pause is short: it copies the
     * lists of states and timer services and captures only the current key's group; every other group is
     * serialized by {@link KeyedStateSnapshot#write} or, if the task changes the group first, captured by this
     * thread just before that change (immutable values by reference, see {@link HeapSnapshot}). A previous snapshot still pending is completed on
     * this thread first. A value that cannot be serialized fails {@code write}, naming its state and class.
     */
    @Override
    public KeyedStateSnapshot snapshot(long checkpointId) {
        return snapshot(false);
    }

    /**
     * A checkpoint as {@link #snapshot(long)}; a savepoint writes the same sections but with grouped states in their
     * canonical form (see {@link GroupedState#logicalForm}), captured on this thread at once, so that operators'
     * functions (which make accumulators) run on the task thread only. Fails naming the state when a grouped state
     * has no canonical form.
     */
    @Override
    public KeyedStateSnapshot snapshot(long checkpointId, boolean savepoint) {
        return snapshot(savepoint);
    }

    private KeyedStateSnapshot snapshot(boolean savepoint) {
        settlePendingSnapshot();
        List<StateRef> refs = new ArrayList<>(states.size());
        for (Map.Entry<String, Registered> e : states.entrySet()) {
            refs.add(new StateRef(e.getKey(), e.getValue().kind, e.getValue().table));
        }
        List<KeyGroupSection.GroupedRef> grouped = new ArrayList<>(groupedStates.size());
        for (Map.Entry<String, GroupedState> e : groupedStates.entrySet()) {
            GroupedState.LogicalForm form = e.getValue().logicalForm();
            if (savepoint && form == null) {
                throw new IllegalStateException("state '" + e.getKey() + "'" + (operatorName != null ? " of operator '"
                        + operatorName + "'" : "") + " is kept in a layout of its own that has no savepoint form");
            }
            grouped.add(new KeyGroupSection.GroupedRef(e.getKey(), e.getValue().capture(), form));
        }
        KeyGroupSection.Contents contents = new KeyGroupSection.Contents(refs, grouped, List.copyOf(timerServices),
                restored.unclaimedStates(), restored.unclaimedTimers(), savepoint);
        HeapSnapshot snapshot = new HeapSnapshot(range, contents);
        if (savepoint) {
            snapshot.captureAll();
        } else if (groupIndex >= 0) {
            snapshot.beforeChange(groupIndex);
        }
        pending = snapshot;
        return snapshot;
    }

    /**
     * Reads one key group's section. States and timer services already created receive their part at
     * once; the others keep it until the operator creates them by name.
     */
    @Override
    public void restoreKeyGroup(int keyGroup, DataInputStream in) throws IOException {
        if (!range.contains(keyGroup)) {
            throw new IllegalArgumentException("cannot restore key group " + keyGroup + ": this backend owns key groups "
                    + rangeText(range) + " (maxParallelism " + maxParallelism + ")");
        }
        settlePendingSnapshot();
        restored.read(in, keyGroup);
        for (Map.Entry<String, Registered> e : states.entrySet()) {
            restored.claimState(e.getKey(), e.getValue().table, e.getValue().kind, clock.millis());
        }
        for (Map.Entry<String, GroupedState> e : groupedStates.entrySet()) {
            restored.claimGrouped(e.getKey(), e.getValue(), range);
        }
        for (HeapTimerService<?> service : timerServices) {
            restored.claimTimers(service);
        }
    }

    @Override
    public Set<String> unclaimedRestoredNames() {
        return restored.unclaimedNames();
    }

    @Override
    public void close() {
        pending = null;
        restored.clear();
        states.clear();
        tables = new StateTable[0];
        groupedStates.clear();
        ttlTables.clear();
        timerServices.clear();
        timerServicesByName.clear();
        key = null;
        groupIndex = -1;
    }

    /** The current key's hashCode; a current key is set. */
    int keyHash() {
        if (!keyHashKnown) {
            keyHash = key.hashCode();
            keyHashKnown = true;
        }
        return keyHash;
    }

    /** The current key, or a clear failure naming the state when there is none. */
    Object requireKey(StateTable table) {
        Object k = key;
        if (k == null) {
            throw new IllegalStateException("state '" + table.name
                    + "' needs a current key: keyed state is only available while processing a keyed record or timer");
        }
        return k;
    }

    /** Gets or creates a state; the same name with another kind is refused. */
    Object register(String name, String kind, StateTtlConfig ttl, Function<StateTable, Object> factory) {
        boolean encodable = !kind.equals(KeyGroupSection.NAMESPACED);
        boolean encoded = values == HeapValues.SERIALIZED && encodable;
        boolean auto = values == HeapValues.AUTO && encodable;
        return register(name, kind, () -> new StateTable(name, this, ttl, true, encoded, kind.equals(KeyGroupSection.LIST),
                auto ? autoValues.get() : null), factory);
    }

    Object register(String name, String kind, Supplier<StateTable> tableFactory,
            Function<StateTable, Object> factory) {
        if (groupedStates.containsKey(name)) {
            throw new IllegalArgumentException("state '" + name + "' is already registered as " + KeyGroupSection.GROUPED
                    + " state, cannot register it again as " + kind + " state");
        }
        Registered r = states.get(name);
        if (r != null) {
            if (!r.kind.equals(kind)) {
                throw new IllegalArgumentException("state '" + name + "' is already registered as " + r.kind
                        + " state, cannot register it again as " + kind + " state");
            }
            return r.state;
        }
        StateTable table = tableFactory.get();
        restored.claimState(name, table, kind, clock.millis());
        Object state = factory.apply(table);
        states.put(name, new Registered(kind, state, table));
        tables = Arrays.copyOf(tables, tables.length + 1);
        tables[tables.length - 1] = table;
        if (table.hasTtl()) {
            ttlTables.add(table);
        }
        return state;
    }

    private static String rangeText(KeyGroupRange r) {
        return "[" + r.start() + ", " + r.end() + "]";
    }
}
