package io.millrace.runtime.checkpoint;

import static io.millrace.runtime.checkpoint.LocalCheckpointStorageTest.checkpoint;
import static io.millrace.runtime.checkpoint.StateFileTest.flipByte;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.runtime.state.StateHandle;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rule that picks the checkpoint or savepoint a job starts from (see {@link StartingPoint}). */
class StartingPointTest {
    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    /** A savepoint with id {@code id}, taken by another job into {@code dir/other/savepoints}. */
    private Path savepoint(long id) throws IOException {
        LocalCheckpointStorage other = new LocalCheckpointStorage(dir.resolve("other-" + id));
        checkpoint(other, id, true);
        return other.savepointPath(id).orElseThrow();
    }

    @Test
    void withoutRestoreFromOrLineage_thenTheNewestCheckpoint() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir.resolve("job"));
        checkpoint(storage, 3, false);
        checkpoint(storage, 4, false);

        StartingPoint start = StartingPoint.choose(storage, null, warnings::add);

        assertThat(start.restore()).get().extracting(CheckpointMetadata::checkpointId).isEqualTo(4L);
        assertThat(start.lastUsedId()).isEqualTo(4);
    }

    @Test
    void whenRestoringASavepoint_thenIdsContinueAfterItAndAfterEveryCheckpointInTheDirectory() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir.resolve("job"));
        checkpoint(storage, 20, false); // an earlier line in the same directory
        Path sp = savepoint(12);

        StartingPoint start = StartingPoint.choose(storage, sp, warnings::add);

        assertThat(start.restore()).get().extracting(CheckpointMetadata::checkpointId, CheckpointMetadata::savepoint)
                .containsExactly(12L, true);
        assertThat(start.lastUsedId()).isEqualTo(20);
        assertThat(storage.lineage()).contains(new RestoreLineage(sp.toString(), 12, 21));

        LocalCheckpointStorage fresh = new LocalCheckpointStorage(dir.resolve("fresh"));
        assertThat(StartingPoint.choose(fresh, sp.resolve("_metadata"), warnings::add).lastUsedId()).isEqualTo(12);
    }

    @Test
    void whenTheLineHasACheckpoint_thenTheSameRestoreFromResumesFromIt_andWithoutRestoreFromToo() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir.resolve("job"));
        Path sp = savepoint(12);
        StartingPoint.choose(storage, sp, warnings::add);
        checkpoint(storage, 13, false);

        StartingPoint again = StartingPoint.choose(storage, sp, warnings::add);
        StartingPoint restarted = StartingPoint.choose(storage, null, warnings::add);

        assertThat(again.restore()).get().extracting(CheckpointMetadata::checkpointId).isEqualTo(13L);
        assertThat(restarted.restore()).get().extracting(CheckpointMetadata::checkpointId).isEqualTo(13L);
        assertThat(again.lastUsedId()).isEqualTo(13);
    }

    @Test
    void whenTheLineHasNoCheckpointYet_thenTheSavepoint_notAnOlderCheckpointOfAnotherLine() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir.resolve("job"));
        checkpoint(storage, 20, false);
        Path sp = savepoint(12);
        StartingPoint.choose(storage, sp, warnings::add);

        StartingPoint restarted = StartingPoint.choose(storage, null, warnings::add);

        assertThat(restarted.restore()).get().extracting(CheckpointMetadata::checkpointId).isEqualTo(12L);
        assertThat(restarted.lastUsedId()).isEqualTo(20);
    }

    @Test
    void whenAnotherSavepointIsGiven_thenANewLineStarts() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir.resolve("job"));
        StartingPoint.choose(storage, savepoint(12), warnings::add);
        checkpoint(storage, 13, false);
        Path other = savepoint(5);

        StartingPoint start = StartingPoint.choose(storage, other, warnings::add);

        assertThat(start.restore()).get().extracting(CheckpointMetadata::checkpointId).isEqualTo(5L);
        assertThat(start.lastUsedId()).isEqualTo(13);
        assertThat(storage.lineage()).contains(new RestoreLineage(other.toString(), 5, 14));
    }

    @Test
    void whenTheLinesOnlyCheckpointIsDamaged_thenTheSavepoint_withAWarningNamingTheFile() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir.resolve("job"));
        Path sp = savepoint(12);
        StartingPoint.choose(storage, sp, warnings::add);
        checkpoint(storage, 13, false);
        flipByte(storage.checkpointRoot().resolve("chk-13/map-1.keyed"), 100);

        StartingPoint start = StartingPoint.choose(storage, sp, warnings::add);

        assertThat(start.restore()).get().extracting(CheckpointMetadata::checkpointId).isEqualTo(12L);
        assertThat(start.lastUsedId()).isEqualTo(13);
        assertThat(warnings).singleElement().asString().contains("chk-13/map-1.keyed").endsWith("; using savepoint 12 at " + sp);
    }

    @Test
    void whenTheSavepointIsMissing_thenTheErrorNamesItsPath() throws IOException {
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir.resolve("job"));
        Path missing = dir.resolve("no-such-savepoint");

        assertThatThrownBy(() -> StartingPoint.choose(storage, missing, warnings::add))
                .isInstanceOf(IOException.class).hasMessageContaining(missing.toString());
    }

    @Test
    void whenRestoringACheckpointOfAnotherJob_thenItsStateFilesAreReadFromThere() throws IOException {
        LocalCheckpointStorage other = new LocalCheckpointStorage(dir.resolve("other-job"));
        checkpoint(other, 7, false);
        LocalCheckpointStorage storage = new LocalCheckpointStorage(dir.resolve("job"));

        StartingPoint start = StartingPoint.choose(storage, other.checkpointRoot().resolve("chk-7"), warnings::add);

        StateHandle keyed = start.restore().orElseThrow().operators().get("map").subtasks().get(1).keyedState();
        try (var in = storage.openStateFile(keyed)) {
            assertThat(in.readAllBytes()).hasSize(3001);
        }
        assertThat(start.lastUsedId()).isEqualTo(7);
    }
}
