package io.millrace.runtime.state;

import java.io.DataOutputStream;
import java.io.IOException;

/**
 * A keyed snapshot that is written as the backend's own files ({@link NativeKeyedState}) instead of one
 * file of key-group sections: files already in checkpoint storage are referenced again, only new ones are
 * written. Taken on the task thread like every {@link KeyedStateSnapshot}; {@link #upload} runs on the
 * snapshot writer thread, followed by {@link #release} (also when the upload fails).
 */
public interface NativeKeyedStateSnapshot extends KeyedStateSnapshot {
    /**
     * Writes the files of the snapshot to checkpoint {@code checkpointId}: new shared files through
     * {@link SnapshotFiles#createSharedFile}, earlier ones claimed again through
     * {@link SnapshotFiles#reuseSharedFile}, private files through {@link SnapshotFiles#createStateFile}
     * with names that start with {@code namePrefix}.
     */
    Upload upload(SnapshotFiles storage, long checkpointId, String namePrefix) throws IOException;

    /** Native snapshots are not written as key-group sections: always fails. */
    @Override
    default void write(DataOutputStream out, PositionSource positions, long[] keyGroupOffsets) {
        throw new UnsupportedOperationException("a native keyed snapshot is written with upload, not as key-group sections");
    }

    /** What an upload produced: the files for the metadata, and how many bytes it actually wrote. */
    record Upload(NativeKeyedState state, long bytesWritten) {}
}
