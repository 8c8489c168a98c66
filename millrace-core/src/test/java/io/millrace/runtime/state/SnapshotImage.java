package io.millrace.runtime.state;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * A keyed snapshot written to a byte array with its key-group offsets, as a checkpoint's state file holds it, for
 * backend tests (heap and RocksDB) that snapshot one backend and restore into others.
 */
public record SnapshotImage(KeyGroupRange range, byte[] bytes, long[] offsets) {

    /** Takes a snapshot of {@code backend} (checkpoint 1) and writes it. */
    public static SnapshotImage take(KeyedStateBackend backend) throws Exception {
        return write(backend.snapshot(1), backend.keyGroupRange());
    }

    /** Writes after a short header, so that offsets are tested as file positions; releases the snapshot. */
    public static SnapshotImage write(KeyedStateSnapshot snapshot, KeyGroupRange range) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeUTF("header");
        long[] offsets = new long[range.size()];
        try {
            snapshot.write(out, out::size, offsets);
        } finally {
            snapshot.release();
        }
        return new SnapshotImage(range, bytes.toByteArray(), offsets);
    }

    /** Restores every key group of this image that {@code target} owns. */
    public void restoreInto(KeyedStateBackend target) throws Exception {
        KeyGroupRange owned = target.keyGroupRange();
        for (int g = Math.max(range.start(), owned.start()); g <= Math.min(range.end(), owned.end()); g++) {
            int at = (int) offsets[g - range.start()];
            target.restoreKeyGroup(g, new DataInputStream(new ByteArrayInputStream(bytes, at, bytes.length - at)));
        }
    }
}
