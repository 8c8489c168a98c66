package io.millrace.runtime.checkpoint;

import static io.millrace.runtime.checkpoint.StateFileTest.flipByte;
import static io.millrace.runtime.checkpoint.StateFileTest.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.runtime.checkpoint.CheckpointMetadata.OperatorSnapshot;
import io.millrace.runtime.checkpoint.CheckpointMetadata.SubtaskSnapshot;
import io.millrace.runtime.state.StateHandle;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalCheckpointStorageTest {
    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    /** Writes a keyed and an operator state file for two subtasks of one operator and commits. */
    static CheckpointMetadata checkpoint(CheckpointStorage storage, long id, boolean savepoint) throws IOException {
        List<SubtaskSnapshot> subtasks = new ArrayList<>();
        for (int subtask = 0; subtask < 2; subtask++) {
            StateHandle keyed = write(storage, id, "map-" + subtask + ".keyed", 3000 + subtask);
            StateHandle operator = write(storage, id, "map-" + subtask + ".op", 40);
            subtasks.add(new SubtaskSnapshot(subtask, subtask * 64, new long[] {0, 1000, 2000}, keyed, operator));
        }
        CheckpointMetadata metadata = new CheckpointMetadata(id, 1000 * id, savepoint, "job", 128,
                Map.of("map", new OperatorSnapshot("map", "Map", 2, subtasks)));
        storage.commit(metadata);
        return metadata;
    }

    private Path root(LocalCheckpointStorage storage) {
        return storage.checkpointRoot();
    }

    @Test
    void whenCommitted_thenLatestIsTheNewest_withItsHandlesReadable() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        checkpoint(storage, 1, false);
        CheckpointMetadata second = checkpoint(storage, 2, false);

        Optional<CheckpointMetadata> latest = storage.latest(warnings::add);

        assertThat(latest).get().usingRecursiveComparison().isEqualTo(second);
        assertThat(warnings).isEmpty();
        assertThat(storage.completed()).containsExactly(1L, 2L);
        assertThat(root(storage).resolve("chk-2/_metadata")).exists();
        assertThat(root(storage).resolve("chk-2/_metadata.tmp")).doesNotExist();
        StateHandle handle = latest.get().operators().get("map").subtasks().get(1).keyedState();
        try (InputStream in = storage.openStateFile(handle)) {
            assertThat(in.readAllBytes()).hasSize(3001);
        }
    }

    @Test
    void whenAJobHasNoState_thenItsCheckpointsAndSavepointsStillCommit() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        storage.commit(new CheckpointMetadata(1, 10, false, "stateless", 128, Map.of()));
        storage.commit(new CheckpointMetadata(2, 20, true, "stateless", 128, Map.of()));

        assertThat(storage.latest(warnings::add)).get().extracting(CheckpointMetadata::timestamp).isEqualTo(10L);
        assertThat(storage.load(storage.savepointPath(2).orElseThrow().toString()).savepoint()).isTrue();
        assertThat(storage.savepointPath(2).orElseThrow().getParent()).isEqualTo(dir.resolve("savepoints").toAbsolutePath());
    }

    @Test
    void whenEmpty_thenNoLatest() throws IOException {
        assertThat(new LocalCheckpointStorage(dir).latest(warnings::add)).isEmpty();
        assertThat(warnings).isEmpty();
    }

    @Test
    void whenAStateFileHasAFlippedByte_thenPreviousCheckpointIsUsed_andTheWarningNamesTheFile() throws IOException {
        LocalCheckpointStorage storage = setUpTwo();
        flipByte(root(storage).resolve("chk-2/map-1.keyed"), 1234);

        assertFallsBackToFirst(storage, "checkpoint 2 is damaged (chk-2/map-1.keyed: CRC mismatch); using checkpoint 1");
    }

    @Test
    void whenAStateFileIsTruncated_thenPreviousCheckpointIsUsed() throws IOException {
        LocalCheckpointStorage storage = setUpTwo();
        try (RandomAccessFile file = new RandomAccessFile(root(storage).resolve("chk-2/map-0.op").toFile(), "rw")) {
            file.setLength(10);
        }

        assertFallsBackToFirst(storage, "checkpoint 2 is damaged (chk-2/map-0.op: size mismatch: expected 40 bytes, found 10); using checkpoint 1");
    }

    @Test
    void whenAStateFileIsDeleted_thenPreviousCheckpointIsUsed() throws IOException {
        LocalCheckpointStorage storage = setUpTwo();
        Files.delete(root(storage).resolve("chk-2/map-0.keyed"));

        assertFallsBackToFirst(storage, "checkpoint 2 is damaged (chk-2/map-0.keyed: missing); using checkpoint 1");
    }

    @Test
    void whenMetadataIsNotJson_thenPreviousCheckpointIsUsed() throws IOException {
        LocalCheckpointStorage storage = setUpTwo();
        Path metadata = root(storage).resolve("chk-2/_metadata");
        byte[] bytes = Files.readAllBytes(metadata);
        Files.write(metadata, Arrays.copyOf(bytes, bytes.length / 2));

        assertFallsBackToFirst(storage, "checkpoint 2 is damaged (chk-2/_metadata: not valid JSON");
    }

    @Test
    void whenMetadataChecksumIsWrong_thenPreviousCheckpointIsUsed() throws IOException {
        LocalCheckpointStorage storage = setUpTwo();
        Path metadata = root(storage).resolve("chk-2/_metadata");
        String json = Files.readString(metadata);
        Files.writeString(metadata, json.replace("\"timestamp\" : 2000", "\"timestamp\" : 2001"));

        assertFallsBackToFirst(storage, "checkpoint 2 is damaged (chk-2/_metadata: checksum mismatch");
    }

    @Test
    void whenOnlyMetadataTmpWasLeft_thenPreviousCheckpointIsUsed_andTheWarningNamesIt() throws IOException {
        LocalCheckpointStorage storage = setUpTwo();
        Path chk2 = root(storage).resolve("chk-2");
        Files.move(chk2.resolve("_metadata"), chk2.resolve("_metadata.tmp"));

        assertFallsBackToFirst(storage, "checkpoint 2 is incomplete (chk-2/_metadata.tmp was never committed); using checkpoint 1");
        assertThat(storage.completed()).containsExactly(1L);
    }

    @Test
    void whenADirectoryHasNoMetadata_thenItIsIgnoredSilently() throws IOException {
        LocalCheckpointStorage storage = setUpTwo();
        write(storage, 3, "map-0.keyed", 10);

        assertThat(storage.latest(warnings::add)).get().extracting(CheckpointMetadata::checkpointId).isEqualTo(2L);
        assertThat(warnings).isEmpty();
    }

    @Test
    void whenEveryCheckpointIsDamaged_thenNoneIsReturned_andEachIsNamed() throws IOException {
        LocalCheckpointStorage storage = setUpTwo();
        flipByte(root(storage).resolve("chk-1/map-0.op"), 0);
        Files.delete(root(storage).resolve("chk-2/map-1.op"));

        assertThat(storage.latest(warnings::add)).isEmpty();
        assertThat(warnings).containsExactly(
                "checkpoint 2 is damaged (chk-2/map-1.op: missing); no intact checkpoint is left",
                "checkpoint 1 is damaged (chk-1/map-0.op: CRC mismatch); no intact checkpoint is left");
    }

    @Test
    void whenMetadataIsCopiedIntoAnotherCheckpoint_thenDetected() throws IOException {
        LocalCheckpointStorage storage = setUpTwo();
        Files.copy(root(storage).resolve("chk-1/_metadata"), root(storage).resolve("chk-2/_metadata"),
                StandardCopyOption.REPLACE_EXISTING);

        assertFallsBackToFirst(storage, "checkpoint 2 is damaged (chk-2/_metadata: describes checkpoint 1); using checkpoint 1");
    }

    @Test
    void retain_keepsTheNewest_andDeletesOlderAndAbandonedOnes_butNotOneInProgress() throws IOException {
        LocalCheckpointStorage earlier = new LocalCheckpointStorage(dir);
        write(earlier, 9, "left-over", 10);
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        checkpoint(storage, 1, false);
        checkpoint(storage, 2, false);
        write(storage, 3, "aborted", 10);
        checkpoint(storage, 4, false);
        checkpoint(storage, 5, false);
        write(storage, 6, "in-progress", 10);

        storage.retain(2);

        assertThat(storage.completed()).containsExactly(4L, 5L);
        try (var entries = Files.list(root(storage))) {
            assertThat(entries.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("chk-4", "chk-5", "chk-6");
        }
        assertThat(root(storage).resolve("chk-6/in-progress")).exists();
        assertThat(storage.latest(warnings::add)).get().extracting(CheckpointMetadata::checkpointId).isEqualTo(5L);
    }

    @Test
    void whenAnIdLeftOverByAnEarlierProcessIsStartedAgain_thenItsOldFilesAreReplaced() throws IOException {
        write(new LocalCheckpointStorage(dir), 5, "map-0.keyed", 10);
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);

        StateHandle handle = write(storage, 5, "map-0.keyed", 20);

        assertThat(handle.size()).isEqualTo(20);
        assertThatThrownBy(() -> checkpoint(storage, 5, false)).isInstanceOf(IOException.class);
    }

    @Test
    void whenACompleteCheckpointIsWrittenAgain_thenRefused() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        checkpoint(storage, 1, false);

        assertThatThrownBy(() -> storage.createStateFile(1, "more")).hasMessageContaining("checkpoint 1 is already complete");
        assertThatThrownBy(() -> storage.commit(new CheckpointMetadata(1, 0, false, "job", 128, Map.of())))
                .hasMessageContaining("checkpoint 1 is already complete");
    }

    @Test
    void whenCommitNamesAFileOfAnotherCheckpoint_thenRefused() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        StateHandle foreign = write(storage, 1, "x", 10);
        SubtaskSnapshot subtask = new SubtaskSnapshot(0, 0, null, foreign, null);

        assertThatThrownBy(() -> storage.commit(new CheckpointMetadata(2, 0, false, "job", 128,
                Map.of("op", new OperatorSnapshot("op", "Op", 1, List.of(subtask))))))
                .hasMessageContaining("chk-1/x does not belong to checkpoint 2");
    }

    @Test
    void savepoint_isSelfContained_loadable_andUntouchedByRetention() throws IOException {
        Path savepoints = dir.resolve("my-savepoints");
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir.resolve("job"), savepoints);
        checkpoint(storage, 1, false);
        CheckpointMetadata savepoint = checkpoint(storage, 2, true);
        checkpoint(storage, 3, false);
        checkpoint(storage, 4, false);

        storage.retain(1);

        assertThat(storage.completed()).containsExactly(4L);
        Path location = storage.savepointPath(2).orElseThrow();
        assertThat(location.getParent()).isEqualTo(savepoints.toAbsolutePath());
        assertThat(location.getFileName().toString()).matches("savepoint-2-[0-9a-f]{8}");
        assertThat(root(storage).resolve("chk-2")).doesNotExist();

        Path moved = Files.move(location, dir.resolve("elsewhere"));
        LocalCheckpointStorage fresh = new LocalCheckpointStorage(dir.resolve("other-job"));
        CheckpointMetadata loaded = fresh.load(moved.toString());
        assertThat(loaded.savepoint()).isTrue();
        assertThat(loaded.operators().get("map").parallelism()).isEqualTo(2);
        for (SubtaskSnapshot subtask : loaded.operators().get("map").subtasks()) {
            StateHandle original = savepoint.operators().get("map").subtasks().get(subtask.subtask()).keyedState();
            assertThat(Path.of(subtask.keyedState().path())).isEqualTo(moved.resolve(Path.of(original.path()).getFileName()));
            try (InputStream in = fresh.openStateFile(subtask.keyedState())) {
                assertThat(in.readAllBytes()).hasSize((int) original.size());
            }
        }
        assertThat(fresh.load(moved.resolve("_metadata").toString())).usingRecursiveComparison().isEqualTo(loaded);
    }

    @Test
    void load_acceptsACheckpointDirectory_andNamesThePathWhenInvalid() throws IOException {
        LocalCheckpointStorage storage = setUpTwo();
        Path chk1 = root(storage).resolve("chk-1");
        assertThat(storage.load(chk1.toString()).checkpointId()).isEqualTo(1);

        flipByte(chk1.resolve("map-1.op"), 3);
        assertThatThrownBy(() -> storage.load(chk1.toString()))
                .hasMessage("the checkpoint or savepoint at " + chk1 + " is damaged: chk-1/map-1.op: CRC mismatch");
        Path nowhere = dir.resolve("nowhere");
        assertThatThrownBy(() -> storage.load(nowhere.toString())).hasMessageContaining("no checkpoint or savepoint at " + nowhere);
        write(storage, 7, "x", 1);
        assertThatThrownBy(() -> storage.load(root(storage).resolve("chk-7").toString()))
                .hasMessageContaining("is not a complete checkpoint or savepoint (no _metadata in " + root(storage).resolve("chk-7"));
    }

    @Test
    void whenSavepointMetadataNamesAFileOutsideItsDirectory_thenLoadFails() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        checkpoint(storage, 1, true);
        Path savepoint = storage.savepointPath(1).orElseThrow();
        String json = Files.readString(savepoint.resolve("_metadata"), StandardCharsets.UTF_8);
        assertThat(json).contains("\"file\" : \"map-0.keyed\"");

        Files.writeString(savepoint.resolve("_metadata"), json.replace("\"file\" : \"map-0.keyed\"", "\"file\" : \"../map-0.keyed\""));

        assertThatThrownBy(() -> storage.load(savepoint.toString())).hasMessageContaining("_metadata");
    }

    private LocalCheckpointStorage setUpTwo() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir);
        checkpoint(storage, 1, false);
        checkpoint(storage, 2, false);
        return storage;
    }

    private void assertFallsBackToFirst(LocalCheckpointStorage storage, String warning) throws IOException {
        warnings.clear();
        Optional<CheckpointMetadata> latest = new LocalCheckpointStorage(dir).latest(warnings::add);

        assertThat(latest).get().extracting(CheckpointMetadata::checkpointId).isEqualTo(1L);
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).startsWith(warning).endsWith("; using checkpoint 1");
    }
}
