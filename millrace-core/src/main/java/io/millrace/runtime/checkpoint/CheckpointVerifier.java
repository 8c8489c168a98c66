package io.millrace.runtime.checkpoint;

import io.millrace.runtime.checkpoint.CheckpointMetadata.OperatorSnapshot;
import io.millrace.runtime.checkpoint.CheckpointMetadata.SubtaskSnapshot;
import io.millrace.runtime.state.NativeKeyedState;
import io.millrace.runtime.state.StateHandle;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Reads a checkpoint or savepoint directory and proves it intact before anyone restores from it: the
 * metadata parses and matches its checksum, and every state file it names exists with the recorded size
 * and CRC-32 (read in full, in large blocks). Handles of a checkpoint under the root carry paths relative
 * to the root ({@code chk-12/map-1.keyed}); those of a directory elsewhere (a savepoint) carry absolute
 * paths. Stateless apart from the root; safe to use from any thread.
 */
final class CheckpointVerifier {
    private final Path root;

    CheckpointVerifier(Path root) {
        this.root = root;
    }

    /** The verified metadata of {@code directory}; fails with an exception naming the first damaged file. */
    CheckpointMetadata read(Path directory) throws CheckpointFileDamagedException {
        boolean underRoot = root.equals(directory.getParent());
        String prefix = underRoot ? directory.getFileName() + "/" : directory + File.separator;
        String metadataName = prefix + CheckpointDirectory.METADATA;
        CheckpointMetadata metadata;
        try {
            byte[] bytes = Files.readAllBytes(directory.resolve(CheckpointDirectory.METADATA));
            metadata = MetadataFormat.read(bytes, name -> {
                StateFileName.check(name);
                return underRoot ? prefix + name : directory.resolve(name).toString();
            }, name -> {
                StateFileName.check(name);
                return underRoot ? MetadataFormat.SHARED + "/" + name : sharedArea(directory).resolve(name).toString();
            });
        } catch (NoSuchFileException e) {
            throw new CheckpointFileDamagedException(metadataName, "missing", e);
        } catch (IOException e) {
            throw new CheckpointFileDamagedException(metadataName, e.getMessage(), e);
        }
        long directoryId = underRoot
                ? CheckpointDirectory.parse(directory).map(CheckpointDirectory::id).orElse(metadata.checkpointId())
                : metadata.checkpointId();
        if (directoryId != metadata.checkpointId()) {
            throw new CheckpointFileDamagedException(metadataName, "describes checkpoint " + metadata.checkpointId());
        }
        for (StateHandle handle : handles(metadata)) {
            verify(handle);
        }
        return metadata;
    }

    /** Checks one state file in full. */
    void verify(StateHandle handle) throws CheckpointFileDamagedException {
        try (VerifyingStateInput in = VerifyingStateInput.open(root.resolve(handle.path()), handle.path(), handle)) {
            in.verifyToEnd();
        } catch (CheckpointFileDamagedException e) {
            throw e;
        } catch (IOException e) {
            throw new CheckpointFileDamagedException(handle.path(), "unreadable (" + e + ")", e);
        }
    }

    /** Every file a checkpoint needs, shared files of incremental checkpoints included. */
    static Set<StateHandle> handles(CheckpointMetadata metadata) {
        Set<StateHandle> handles = new LinkedHashSet<>();
        for (OperatorSnapshot operator : metadata.operators().values()) {
            for (SubtaskSnapshot subtask : operator.subtasks()) {
                if (subtask.keyedState() != null) {
                    handles.add(subtask.keyedState());
                }
                if (subtask.operatorState() != null) {
                    handles.add(subtask.operatorState());
                }
                if (subtask.nativeKeyedState() != null) {
                    for (NativeKeyedState.NativeFile f : subtask.nativeKeyedState().files()) {
                        handles.add(f.handle());
                    }
                }
            }
        }
        return handles;
    }

    /** The shared area of the checkpoints next to {@code directory}: {@code shared/} in its parent. */
    static Path sharedArea(Path directory) {
        Path parent = directory.getParent();
        return (parent == null ? directory : parent).resolve(MetadataFormat.SHARED);
    }
}
