package io.millrace.runtime.state.heap;

import io.millrace.runtime.checkpoint.KeyedStateSnapshot;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.KeyedStateBackend;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/** A keyed snapshot written to a byte array with its key group offsets, as checkpoint storage would keep it. */
record SnapshotImage(KeyGroupRange range, byte[] bytes, long[] offsets) {

    static SnapshotImage take(HeapKeyedStateBackend backend) throws Exception {
        return write(backend.snapshot(1), backend.keyGroupRange());
    }

    /** Writes the snapshot after a prefix of junk, so that offsets are tested as file positions. */
    static SnapshotImage write(KeyedStateSnapshot snapshot, KeyGroupRange range) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeUTF("header");
        long[] offsets = new long[range.size()];
        snapshot.write(out, out::size, offsets);
        snapshot.release();
        return new SnapshotImage(range, bytes.toByteArray(), offsets);
    }

    /** Restores every key group of this image that {@code target} owns. */
    void restoreInto(KeyedStateBackend target) throws Exception {
        KeyGroupRange owned = target.keyGroupRange();
        for (int g = Math.max(range.start(), owned.start()); g <= Math.min(range.end(), owned.end()); g++) {
            int at = (int) offsets[g - range.start()];
            target.restoreKeyGroup(g, new DataInputStream(new ByteArrayInputStream(bytes, at, bytes.length - at)));
        }
    }
}
