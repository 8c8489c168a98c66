package io.millrace.runtime.checkpoint;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where checkpoints live. State files are written while a checkpoint is in progress; {@link #commit}
 * makes it complete by writing its metadata atomically (write, sync, rename) with a checksum. Only this
 * interface knows paths and formats, so other stores (object stores) can be added without touching
 * operators. Thread-safe: subtasks write their state files concurrently.
 */
public interface CheckpointStorage {
    /** Opens a new state file of a checkpoint in progress; the handle is known once the writer is closed. */
    StateFileWriter createStateFile(long checkpointId, String name) throws IOException;

    /**
     * Opens a new file in the shared area, for the incremental checkpoint {@code checkpointId}: written once,
     * then referenced by the metadata of every later checkpoint that still needs it (see
     * {@link #reuseSharedFile}), and deleted by {@link #retain} or {@link #discard} once no complete
     * checkpoint and no checkpoint in progress refers to it. {@code name} must be unique in the shared area
     * (the writer fails if a file of that name exists). The default: this storage has no shared area.
     */
    default StateFileWriter createSharedFile(long checkpointId, String name) throws IOException {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no shared files (incremental checkpoints)");
    }

    /**
     * Claims a shared file written for an earlier checkpoint for checkpoint {@code checkpointId}, which is in
     * progress: from now on retention keeps it for this checkpoint too. False when the file is not in this
     * storage's shared area any more (deleted, or written elsewhere): write it again. Thread-safe. The
     * default: false.
     */
    default boolean reuseSharedFile(long checkpointId, StateHandle handle) throws IOException {
        return false;
    }

    /** Reads a state file back; the stream fails with an IOException naming the file if its checksum or size does not match. */
    InputStream openStateFile(StateHandle handle) throws IOException;

    /** Completes a checkpoint: its metadata becomes visible atomically. */
    void commit(CheckpointMetadata metadata) throws IOException;

    /**
     * The newest complete checkpoint whose metadata and state files are intact. A corrupt or partial one
     * is skipped with a warning (through {@code warnings}) that names the damaged file.
     */
    default Optional<CheckpointMetadata> latest(Consumer<String> warnings) throws IOException {
        return latest(Long.MIN_VALUE, warnings);
    }

    /** Like {@link #latest(Consumer)}, among the checkpoints with an id of at least {@code minId}. */
    Optional<CheckpointMetadata> latest(long minId, Consumer<String> warnings) throws IOException;

    /** Where savepoint {@code checkpointId}, committed by this instance, now is (a pointer for {@link #load}). */
    Optional<String> savepointPointer(long checkpointId);

    /** The savepoint the checkpoints here descend from, as last recorded; empty if none was. */
    Optional<RestoreLineage> lineage() throws IOException;

    /** Records (durably, replacing the previous one) the savepoint the checkpoints here descend from. */
    void recordLineage(RestoreLineage lineage) throws IOException;

    /** A savepoint or checkpoint by its directory or metadata path; fails naming the path if it is not valid. */
    CheckpointMetadata load(String pointer) throws IOException;

    /** Ids of complete checkpoints, oldest first. */
    List<Long> completed() throws IOException;

    /**
     * Deletes the files of a checkpoint (complete or abandoned), then the shared files no complete checkpoint
     * and no checkpoint in progress refers to any more. Savepoints are never deleted by retention.
     */
    void discard(long checkpointId) throws IOException;

    /**
     * Keeps the newest {@code count} complete checkpoints and deletes older ones and abandoned partial ones, then
     * the shared files that neither a remaining complete checkpoint nor a checkpoint in progress refers to.
     */
    void retain(int count) throws IOException;

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
