package io.millrace.runtime.state;

import java.io.DataOutputStream;
import java.io.IOException;

/**
 * A consistent capture of a keyed state backend, taken on the task thread when the checkpoint barrier
 * is processed (the synchronous part, kept short) and written out afterwards, possibly on another thread
 * (the asynchronous part). Later state changes must not show in what it writes.
 */
public interface KeyedStateSnapshot {
    /**
     * Writes every key group of the backend's range in ascending order. Before writing key group
     * {@code range.start() + i} it stores {@code out.size()}-based position into {@code keyGroupOffsets[i]}
     * via {@code positions}; a restore seeks there and calls {@code restoreKeyGroup}.
     */
    void write(DataOutputStream out, PositionSource positions, long[] keyGroupOffsets) throws IOException;

    /** Frees what the capture holds; idempotent. */
    default void release() {}

    /** The current byte position in the file being written. */
    @FunctionalInterface
    interface PositionSource {
        long position();
    }
}
