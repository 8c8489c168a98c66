package io.millrace.runtime.checkpoint;

import static io.millrace.runtime.checkpoint.StateFileTest.flipByte;
import static io.millrace.runtime.checkpoint.StateFileTest.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.runtime.checkpoint.CheckpointMetadata.OperatorSnapshot;
import io.millrace.runtime.checkpoint.CheckpointMetadata.SubtaskSnapshot;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.NativeKeyedState.NativeFile;
import io.millrace.runtime.state.NativeKeyedState;
import io.millrace.runtime.state.SnapshotFiles;
import io.millrace.runtime.state.StateHandle;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared area of incremental checkpoints in {@link LocalCheckpointStorage}: written once, kept while referenced. */
class SharedCheckpointFilesTest {
    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    static StateHandle writeShared(CheckpointStorage storage, long checkpointId, String name, int size) throws IOException {
        byte[] bytes = new byte[size];
        new Random(name.hashCode()).nextBytes(bytes);
        try (SnapshotFiles.StateFileWriter writer = storage.createSharedFile(checkpointId, name)) {
            writer.stream().write(bytes);
            return writer.closeAndGetHandle();
        }
    }

    /** Commits checkpoint {@code id} referring to {@code shared} files (claimed or written for it) and one private file. */
    private static CheckpointMetadata commit(CheckpointStorage storage, long id, List<StateHandle> shared) throws IOException {
        List<NativeFile> files = new ArrayList<>();
        for (StateHandle h : shared) {
            files.add(new NativeFile(h.path().substring(h.path().lastIndexOf('-') + 1), h, true));
        }
        files.add(new NativeFile("MANIFEST-000001", write(storage, id, "op-0.MANIFEST-000001", 100), false));
        SubtaskSnapshot subtask = new SubtaskSnapshot(0, 0, null, null, null, new NativeKeyedState("rocksdb", new KeyGroupRange(0, 127), files));
        CheckpointMetadata metadata = new CheckpointMetadata(id, id, false, "job", 128,
                Map.of("op", new OperatorSnapshot("op", "op", 1, List.of(subtask))));
        storage.commit(metadata);
        return metadata;
    }

    @Test
    void whenCheckpointsShareFiles_thenRetentionDeletesOnlyFilesNoRetainedCheckpointRefersTo() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        StateHandle a = writeShared(storage, 1, "op-0-i1-a", 1000);
        StateHandle b = writeShared(storage, 1, "op-0-i1-b", 2000);
        commit(storage, 1, List.of(a, b));
        assertThat(storage.reuseSharedFile(2, b)).isTrue();
        StateHandle c = writeShared(storage, 2, "op-0-i1-c", 500);
        commit(storage, 2, List.of(b, c));

        storage.retain(2);
        assertThat(storage.sharedFiles()).containsExactly("op-0-i1-a", "op-0-i1-b", "op-0-i1-c");

        storage.retain(1);
        assertThat(storage.sharedFiles()).containsExactly("op-0-i1-b", "op-0-i1-c");
        assertThat(storage.latest(warnings::add)).get().extracting(CheckpointMetadata::checkpointId).isEqualTo(2L);
        assertThat(storage.reuseSharedFile(3, a)).as("a deleted file cannot be claimed again").isFalse();
        try (InputStream in = storage.openStateFile(c)) {
            assertThat(in.readAllBytes()).hasSize(500);
        }
    }

    @Test
    void whenACheckpointIsInProgress_thenItsSharedFilesSurviveRetention_andAfterACrashTheyAreGarbage() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        StateHandle a = writeShared(storage, 1, "op-0-i1-a", 1000);
        commit(storage, 1, List.of(a));
        StateHandle b = writeShared(storage, 2, "op-0-i1-b", 1000); // checkpoint 2 in progress
        assertThat(storage.reuseSharedFile(2, a)).isTrue();

        storage.retain(1);
        assertThat(storage.sharedFiles()).containsExactly("op-0-i1-a", "op-0-i1-b");

        LocalCheckpointStorage afterCrash = new LocalCheckpointStorage(dir); // the process died before committing 2
        afterCrash.retain(1);
        assertThat(afterCrash.sharedFiles()).containsExactly("op-0-i1-a");
        assertThat(b.path()).startsWith("shared/");
    }

    @Test
    void whenAnAbandonedCheckpointIsDiscarded_thenTheFilesOnlyItWroteAreDeleted() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        StateHandle a = writeShared(storage, 1, "op-0-i1-a", 1000);
        commit(storage, 1, List.of(a));
        assertThat(storage.reuseSharedFile(2, a)).isTrue();
        writeShared(storage, 2, "op-0-i1-b", 1000);

        storage.discard(2);

        assertThat(storage.sharedFiles()).containsExactly("op-0-i1-a");
    }

    @Test
    void whenASharedFileIsDamaged_thenTheCheckpointsReferringToItAreSkipped_namingTheFile() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        commit(storage, 1, List.of(writeShared(storage, 1, "op-0-i1-a", 1000)));
        StateHandle b = writeShared(storage, 2, "op-0-i1-b", 1000);
        commit(storage, 2, List.of(b));

        flipByte(storage.checkpointRoot().resolve(b.path()), 10);

        assertThat(storage.latest(warnings::add)).get().extracting(CheckpointMetadata::checkpointId).isEqualTo(1L);
        assertThat(warnings).singleElement().asString()
                .contains("checkpoint 2 is damaged (shared/op-0-i1-b: CRC mismatch); using checkpoint 1");
    }

    @Test
    void whenACommitRefersToASharedFileNotClaimedForIt_thenItIsRefused() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        StateHandle a = writeShared(storage, 1, "op-0-i1-a", 1000);
        commit(storage, 1, List.of(a));

        assertThatThrownBy(() -> commit(storage, 2, List.of(a))).hasMessageContaining("neither written nor claimed for checkpoint 2");
        assertThat(Files.exists(storage.checkpointRoot().resolve(a.path()))).isTrue();
    }
}
