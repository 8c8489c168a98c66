package io.millrace.runtime.state.heap;

import io.millrace.runtime.state.serde.ByteReader;
import io.millrace.runtime.state.serde.ByteWriter;
import io.millrace.runtime.state.serde.ShapeDictionary;
import java.io.IOException;

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
    }
}
