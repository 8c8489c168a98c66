package io.millrace.runtime.state.heap;

import io.millrace.runtime.checkpoint.KeyedStateSnapshot;
import io.millrace.runtime.state.KeyGroupRange;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * A heap backend's checkpoint: every key group of the range already serialized into its own byte array
 * (the synchronous part, done by {@link HeapKeyedStateBackend#snapshot}), so that later changes to the
 * state, including in-place mutation of stored values, cannot show. {@link #write} only copies the bytes
 * out and may run on any thread, once.
 */
final class HeapSnapshot implements KeyedStateSnapshot {
    private final KeyGroupRange range;
    private volatile byte[][] sections;

    HeapSnapshot(KeyGroupRange range, byte[][] sections) {
        this.range = range;
        this.sections = sections;
    }

    @Override
    public void write(DataOutputStream out, PositionSource positions, long[] keyGroupOffsets) throws IOException {
        byte[][] s = sections;
        if (s == null) {
            throw new IllegalStateException("the snapshot of key groups [" + range.start() + ", " + range.end() + "] was released");
        }
        if (keyGroupOffsets.length < s.length) {
            throw new IllegalArgumentException("keyGroupOffsets has room for " + keyGroupOffsets.length
                    + " key groups, the snapshot has " + s.length);
        }
        for (int i = 0; i < s.length; i++) {
            out.flush();
            keyGroupOffsets[i] = positions.position();
            out.write(s[i]);
        }
        out.flush();
    }

    /** Total serialized bytes; 0 once released. */
    long size() {
        byte[][] s = sections;
        long n = 0;
        if (s != null) {
            for (byte[] b : s) {
                n += b.length;
            }
        }
        return n;
    }

    @Override
    public void release() {
        sections = null;
    }
}
