package io.millrace.runtime.state;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The files of checkpoints as a state backend sees them: what a {@link NativeKeyedStateSnapshot} uploads to and a
 * native restore reads from. The checkpoint storage implements it; a backend never sees paths or metadata.
 * Thread-safe: subtasks write and read their files concurrently.
 */
public interface SnapshotFiles {
    /** Opens a new state file of checkpoint {@code checkpointId}, in progress; the handle is known once the writer is closed. */
    StateFileWriter createStateFile(long checkpointId, String name) throws IOException;

    /**
     * Opens a new file in the shared area, for the incremental checkpoint {@code checkpointId}: written once,
     * then referenced by the metadata of every later checkpoint that still needs it (see
     * {@link #reuseSharedFile}), and deleted once no complete checkpoint and no checkpoint in progress refers to
     * it. {@code name} must be unique in the shared area (the writer fails if a file of that name exists). The
     * default: these files have no shared area.
     */
    default StateFileWriter createSharedFile(long checkpointId, String name) throws IOException {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no shared files (incremental checkpoints)");
    }

    /**
     * Claims a shared file written for an earlier checkpoint for checkpoint {@code checkpointId}, which is in
     * progress: from now on retention keeps it for this checkpoint too. False when the file is not in the shared
     * area any more (deleted, or written elsewhere): write it again. The default: false.
     */
    default boolean reuseSharedFile(long checkpointId, StateHandle handle) throws IOException {
        return false;
    }

    /** Reads a state file back; the stream fails with an IOException naming the file if its checksum or size does not match. */
    InputStream openStateFile(StateHandle handle) throws IOException;

    /** An output stream for one state file; {@link #closeAndGetHandle} finishes it. */
    interface StateFileWriter extends AutoCloseable {
        OutputStream stream();

        /** Bytes written so far (for key-group offsets). */
        long position();

        StateHandle closeAndGetHandle() throws IOException;

        /** Abandons the file; idempotent. */
        @Override
        void close() throws IOException;
    }
}
