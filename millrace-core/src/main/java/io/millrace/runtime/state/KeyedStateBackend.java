package io.millrace.runtime.state;

import io.millrace.api.state.KeyedStateStore;

/**
 * Keyed state of one operator subtask, for the key groups it owns. Every access reads or writes the
 * value of the current key, set by the operator before each record and by the timer service before
 * each timer. Single-threaded: only the task thread calls it.
 */
public interface KeyedStateBackend extends AutoCloseable {
    /**
     * Sets the current key; computes its key group once. Fails if the group is not in this subtask's
     * range. Null clears the current key (as for a record of a broadcast input): state and timers then
     * refuse access with IllegalStateException until a key is set.
     */
    void setCurrentKey(Object key);

    /**
     * Sets a current key whose key group the caller already computed (with {@link KeyGroups#keyGroupFor});
     * saves hashing the key again after a hash exchange. The default ignores the hint.
     */
    default void setCurrentKey(Object key, int keyGroup) {
        setCurrentKey(key);
    }

    /**
     * Loads, without changing anything, what the state of {@code key} (in {@code keyGroup}) will read soon, for a
     * caller about to visit a batch of keys (timers firing): see {@link ReadAhead}. Returns 0 (a figure the
     * caller keeps so that the reads are not left out). The default reads nothing.
     */
    default int readAhead(Object key, int keyGroup) {
        return 0;
    }

    Object currentKey();

    int currentKeyGroup();

    KeyGroupRange keyGroupRange();

    int maxParallelism();

    /** User-facing state by descriptor; the same descriptor name gives the same state. */
    KeyedStateStore stateStore();

    /** Internal state with namespaces (for windows), by name. */
    <N, V> NamespacedState<N, V> namespacedState(String name);

    /**
     * A timer service by name; timers fire into {@code target} with the timer's key as current key.
     * Event-time timers fire on {@link #advanceWatermark}, processing-time ones on
     * {@link #advanceProcessingTime}.
     */
    <N> InternalTimerService<N> timerService(String name, Triggerable<N> target);

    /** Fires every event-time timer at or before the watermark, in timestamp order. */
    void advanceWatermark(long watermark) throws Exception;

    /** Fires due processing-time timers and sweeps some expired TTL entries. */
    void advanceProcessingTime(long now) throws Exception;

    /**
     * Visits the stored (key, value) pairs of the state named {@code stateName} (created before, by its descriptor) in
     * one owned key group; for map and namespaced states each value is a (map key or namespace, value) entry, so a key
     * may come more than once. Does not change the current key. Task thread. The default cannot list its entries.
     */
    default void forEachEntry(String stateName, int keyGroup, java.util.function.BiConsumer<Object, Object> action) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot list the keys of its state '" + stateName + "'");
    }

    /** Number of live (key, state) entries over all states; for tests and metrics. */
    long entryCount();

    /** Names of restored states and timer services that no operator has asked for yet. */
    java.util.Set<String> unclaimedRestoredNames();

    /** Live event-time timers over all timer services; for tests and metrics. */
    int eventTimeTimerCount();

    /**
     * The timestamp of the earliest event-time timer over all timer services, {@code Long.MAX_VALUE} when there is
     * none: the lowest watermark at which {@link #advanceWatermark} fires anything. Task thread.
     */
    long nextEventTimerTime();

    @Override
    void close();

    /**
     * Captures all state and timers of this backend for a checkpoint. Called on the task thread when
     * the barrier is processed; keep the work here short and leave the writing to the returned snapshot.
     */
    default io.millrace.runtime.state.KeyedStateSnapshot snapshot(long checkpointId) throws Exception {
        throw new IllegalStateException(getClass().getSimpleName() + " cannot take checkpoints");
    }

    /**
     * Like {@link #snapshot(long)}, for a checkpoint or a savepoint. A checkpoint may be in the backend's own
     * format (an incremental one as a {@link io.millrace.runtime.state.NativeKeyedStateSnapshot}); a
     * savepoint must be written as sections of the canonical
     * {@link io.millrace.runtime.state.LogicalSection} format, self-contained, so that every backend
     * restores it. The default takes {@link #snapshot(long)} either way, for a backend whose sections are
     * canonical.
     */
    default io.millrace.runtime.state.KeyedStateSnapshot snapshot(long checkpointId, boolean savepoint) throws Exception {
        return snapshot(checkpointId);
    }

    /**
     * Restores from the backend's own files (an incremental checkpoint): {@code parts} are the old subtasks'
     * snapshots whose key groups overlap this backend's range, read through {@code storage}. Called, like
     * {@link #restoreKeyGroup}, after construction and before the operator opens, on the task thread; key
     * groups outside this backend's range are not restored. Returns false when this backend cannot read such
     * files (the default); the caller then fails naming the checkpoint.
     */
    default boolean restoreNative(long checkpointId, java.util.List<io.millrace.runtime.state.NativeKeyedState> parts,
            io.millrace.runtime.state.SnapshotFiles storage) throws Exception {
        return false;
    }

    /**
     * Restores one key group of this backend's range from a section written by {@link #snapshot} (possibly by a
     * subtask of another parallelism): a section of the canonical {@link io.millrace.runtime.state.LogicalSection}
     * format, written by any backend, or one in this backend's own format. Called after construction and before
     * the operator opens; state and timer services created later by name pick up what was restored. A section
     * this backend cannot read fails naming the operator and what it found.
     */
    default void restoreKeyGroup(int keyGroup, java.io.DataInputStream in) throws Exception {
        throw new IllegalStateException(getClass().getSimpleName() + " cannot restore checkpoints");
    }
}
