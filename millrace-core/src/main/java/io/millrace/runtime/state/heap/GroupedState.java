package io.millrace.runtime.state.heap;

import io.millrace.runtime.state.serde.ByteReader;
import io.millrace.runtime.state.serde.ByteWriter;
import io.millrace.runtime.state.serde.ShapeDictionary;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * State that an operator keeps on the heap in a layout of its own (for example window slices: per slice, per
 * key group, a table of keys), checkpointed and restored by the {@link HeapKeyedStateBackend} together with
 * its other states, one key group at a time, so that it can be restored at another parallelism. Registered
 * with {@link HeapKeyedStateBackend#registerGroupedState}.
 *
 * <p>Values go through {@link io.millrace.runtime.state.serde.StateSerializer}s over the dictionary handed
 * in ({@code forKeys} for keys, {@code forValues} for values), so that record, enum and plain classes evolve
 * as in any other state; the backend stores the dictionary with the payload.
 *
 * <p>Copy-on-write contract: a snapshot is taken on the task thread ({@link #capture}) and each key group is
 * written later, possibly on another thread, by {@link Capture#write}. The state must therefore change
 * nothing of a key group before the backend's current key is set to a key of that group (as it is for every
 * record and timer), and may add or drop whole structures after {@link #capture} only if the capture keeps
 * its own references to what it will write.
 */
public interface GroupedState {
    /** Task thread: what a checkpoint taken now contains, written per key group later. */
    Capture capture();

    /**
     * Task thread, when the state is registered or a key group is restored after that: reads one owned key
     * group's payload, as written by a {@link Capture} (possibly of a backend with another parallelism),
     * whose shapes are in {@code shapes}. {@code context} names the state and operator for errors, e.g.
     * {@code "state 'window-slices' of operator 'sum'"}. A stored type that no longer fits the classes fails
     * with {@link io.millrace.runtime.state.serde.StateSchemaException}.
     */
    void restore(int keyGroup, ShapeDictionary shapes, ByteReader in, String context);

    /** Number of stored entries, for tests and metrics. */
    long entryCount();

    /**
     * The state's canonical form in savepoints ({@link io.millrace.runtime.state.LogicalSection}): the
     * keyed states and timer services it is written as, which any backend restores, so that an operator keeping
     * the same logical state in ordinary keyed state on another backend restores it. Null (the default) when it
     * has none: a savepoint of it then fails naming the state.
     */
    default LogicalForm logicalForm() {
        return null;
    }

    /**
     * Task thread, when the state is registered or a key group restored after that: takes the canonical form of
     * one owned key group, read from a savepoint (of any backend). {@code context} names the state and operator
     * for errors. Only called when {@link #logicalForm} is not null.
     */
    default void restoreLogical(int keyGroup, LogicalGroup group, String context) {
        throw new UnsupportedOperationException(context + " has no canonical form");
    }

    /**
     * The keyed states (name to kind: {@code value} or {@code namespaced}, in the order written) and timer
     * services a grouped state is written as in savepoints. The first state is the one registered by name.
     */
    record LogicalForm(LinkedHashMap<String, String> states, List<String> timerServices) {}

    /**
     * One key group of a canonical form: per state, key to value (a namespaced state's value is a map from
     * namespace to value); per timer service, its timers.
     */
    record LogicalGroup(Map<String, Map<Object, Object>> states,
            Map<String, List<LogicalTimer>> timers) {}

    /** A timer of a canonical form. */
    record LogicalTimer(Object key, Object namespace, long timestamp, boolean eventTime) {}

    /** One checkpoint's view of the state. */
    interface Capture {
        /**
         * Writes key group {@code keyGroup}'s payload, recording the shapes of its values in {@code shapes};
         * writing nothing means the group is empty. Any thread, once per group. A value that cannot be
         * serialized fails with IllegalArgumentException (the backend names the state).
         */
        void write(int keyGroup, ShapeDictionary shapes, ByteWriter out) throws IOException;

        /**
         * Task thread, before it changes key group {@code keyGroup} while this capture has not written it: a
         * capture of that group alone that stays valid whatever the task then changes (for example copies of
         * the group's tables when their values are {@linkplain ImmutableClasses immutable}), whose
         * {@code write} runs later on any thread; or null, and the group is written at once on the task thread.
         * The default copies nothing.
         */
        default Capture copyGroup(int keyGroup) {
            return null;
        }

        /**
         * Any thread, once per group, like {@link #write}: key group {@code keyGroup} in the canonical form of
         * {@link GroupedState#logicalForm}, as decoded objects that the backend then encodes. Only called when that
         * form is not null.
         */
        default LogicalGroup writeLogical(int keyGroup) {
            throw new UnsupportedOperationException("no canonical form");
        }
    }
}
