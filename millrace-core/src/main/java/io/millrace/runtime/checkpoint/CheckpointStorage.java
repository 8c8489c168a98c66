package io.millrace.runtime.checkpoint;

import io.millrace.runtime.state.SnapshotFiles;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where checkpoints live. State files are written while a checkpoint is in progress; {@link #commit}
 * makes it complete by writing its metadata atomically (write, sync, rename) with a checksum. Only this
 * interface knows paths and formats, so other stores (object stores) can be added without touching
 * operators; state backends see only its {@link SnapshotFiles}. Thread-safe: subtasks write their state files concurrently.
 */
public interface CheckpointStorage extends SnapshotFiles {
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
}
