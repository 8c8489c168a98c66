package io.millrace.runtime.state.heap;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * State that an operator keeps on the heap in a layout of its own (for example window slices: per slice, per
 * key group, a table of keys), checkpointed and restored by the {@link HeapKeyedStateBackend} together with
 * its other states, one key group at a time, so that it can be restored at another parallelism. Registered
 * with {@link HeapKeyedStateBackend#registerGroupedState}.
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
     * Task thread, before the operator runs: reads one owned key group's part, as written by a
     * {@link Capture} (possibly of a backend with another parallelism).
     */
    void restore(int keyGroup, DataInputStream in) throws IOException;

    /** Number of stored entries, for tests and metrics. */
    long entryCount();

    /** One checkpoint's view of the state. */
    interface Capture {
        /** Writes key group {@code keyGroup}'s part, self-contained; any thread, once per group. */
        void write(int keyGroup, DataOutputStream out) throws IOException;
    }
}
