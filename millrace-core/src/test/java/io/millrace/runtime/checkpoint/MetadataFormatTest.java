package io.millrace.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.runtime.checkpoint.CheckpointMetadata.OperatorSnapshot;
import io.millrace.runtime.checkpoint.CheckpointMetadata.SubtaskSnapshot;
import io.millrace.runtime.state.KeyGroupRange;
import io.millrace.runtime.state.NativeKeyedState;
import io.millrace.runtime.state.StateHandle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class MetadataFormatTest {
    private static final Function<StateHandle, String> NAME_IN_DIRECTORY = h -> h.path().substring(h.path().indexOf('/') + 1);
    private static final Function<String, String> UNDER_CHK_7 = name -> "chk-7/" + name;

    static CheckpointMetadata sample(boolean savepoint) {
        SubtaskSnapshot keyedOnly = new SubtaskSnapshot(0, 0, new long[] {0, 17, 17, 4_000_000_000L},
                new StateHandle("chk-7/counts-0.keyed", 4_000_000_100L, 0xFFFF_FFFFL), null);
        SubtaskSnapshot operatorOnly = new SubtaskSnapshot(1, 4, null, null, new StateHandle("chk-7/counts-1.op", 12, 0));
        SubtaskSnapshot empty = new SubtaskSnapshot(2, 8, null, null, null);
        Map<String, OperatorSnapshot> operators = new LinkedHashMap<>();
        operators.put("counts", new OperatorSnapshot("counts", "Keyed counts \"per machine\" — °C", 3, List.of(keyedOnly, operatorOnly, empty), 1_699_999_990_000L));
        operators.put("source", new OperatorSnapshot("source", null, 1, List.of()));
        return new CheckpointMetadata(7, 1_700_000_000_123L, savepoint, "factory floor", 128, operators);
    }

    @Test
    void whenWrittenAndRead_thenEveryFieldSurvives() throws IOException {
        for (boolean savepoint : new boolean[] {false, true}) {
            CheckpointMetadata original = sample(savepoint);

            CheckpointMetadata read = MetadataFormat.read(MetadataFormat.write(original, NAME_IN_DIRECTORY), UNDER_CHK_7);

            assertThat(read).usingRecursiveComparison().isEqualTo(original);
            assertThat(read.savepoint()).isEqualTo(savepoint);
        }
    }

    @Test
    void sameCheckpoint_alwaysGivesTheSameBytes_andHumanReadableJson() {
        CheckpointMetadata original = sample(false);
        Map<String, OperatorSnapshot> reversed = new LinkedHashMap<>();
        reversed.put("source", original.operators().get("source"));
        reversed.put("counts", original.operators().get("counts"));
        CheckpointMetadata reordered = new CheckpointMetadata(7, original.timestamp(), false, original.jobName(), 128, reversed);

        byte[] bytes = MetadataFormat.write(original, NAME_IN_DIRECTORY);

        assertThat(MetadataFormat.write(reordered, NAME_IN_DIRECTORY)).isEqualTo(bytes);
        String json = new String(bytes, StandardCharsets.UTF_8);
        assertThat(json).contains("\"format\" : \"millrace-checkpoint\"", "\"version\" : 1", "\"file\" : \"counts-0.keyed\"",
                "\"crc32\" : \"ffffffff\"", "\"sha256\" : \"").contains("\n");
    }

    @Test
    void whenOnlyWhitespaceChanges_thenStillValid() throws IOException {
        String json = new String(MetadataFormat.write(sample(false), NAME_IN_DIRECTORY), StandardCharsets.UTF_8);
        String compacted = json.replace("\n", " ").replace(" : ", ":");

        CheckpointMetadata read = MetadataFormat.read(compacted.getBytes(StandardCharsets.UTF_8), UNDER_CHK_7);

        assertThat(read.checkpointId()).isEqualTo(7);
    }

    @Test
    void whenAValueChanges_thenChecksumMismatch() {
        String json = new String(MetadataFormat.write(sample(false), NAME_IN_DIRECTORY), StandardCharsets.UTF_8);
        byte[] edited = json.replace("\"parallelism\" : 3", "\"parallelism\" : 4").getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> MetadataFormat.read(edited, UNDER_CHK_7)).isInstanceOf(IOException.class).hasMessageContaining("checksum mismatch");
    }

    @Test
    void whenNotJsonOrNotMetadataOrNewerVersion_thenClearErrors() {
        String json = new String(MetadataFormat.write(sample(false), NAME_IN_DIRECTORY), StandardCharsets.UTF_8);

        assertThatThrownBy(() -> MetadataFormat.read(json.substring(0, json.length() / 2).getBytes(StandardCharsets.UTF_8), UNDER_CHK_7))
                .hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> MetadataFormat.read("{\"a\": 1}".getBytes(StandardCharsets.UTF_8), UNDER_CHK_7))
                .hasMessageContaining("not a Millrace checkpoint metadata file");
        assertThatThrownBy(() -> MetadataFormat.read(json.replace("\"version\" : 1", "\"version\" : 3").getBytes(StandardCharsets.UTF_8), UNDER_CHK_7))
                .hasMessageContaining("format version 3 is not supported (this Millrace reads versions 1 to 2)");
    }

    static CheckpointMetadata incremental() {
        NativeKeyedState files = new NativeKeyedState("rocksdb", new KeyGroupRange(64, 127), List.of(
                new NativeKeyedState.NativeFile("000012.sst", new StateHandle("shared/counts-1-ab12-000012.sst", 5000, 0x1234L), true),
                new NativeKeyedState.NativeFile("MANIFEST-000005", new StateHandle("chk-7/counts-1.MANIFEST-000005", 300, 7), false)));
        SubtaskSnapshot subtask = new SubtaskSnapshot(1, 64, null, null, null, files);
        return new CheckpointMetadata(7, 1, false, "job", 128, Map.of("counts", new OperatorSnapshot("counts", "counts", 2, List.of(subtask))));
    }

    @Test
    void whenNativeKeyedStateIsWrittenAndRead_thenSharedAndPrivateFilesSurvive_asVersion2() throws IOException {
        CheckpointMetadata original = incremental();

        byte[] bytes = MetadataFormat.write(original, NAME_IN_DIRECTORY);
        CheckpointMetadata read = MetadataFormat.read(bytes, UNDER_CHK_7);

        assertThat(read).usingRecursiveComparison().isEqualTo(original);
        assertThat(new String(bytes, StandardCharsets.UTF_8)).contains("\"version\" : 2", "\"shared\" : \"counts-1-ab12-000012.sst\"",
                "\"file\" : \"counts-1.MANIFEST-000005\"", "\"keyGroupEnd\" : 127");
        assertThat(new String(MetadataFormat.write(sample(false), NAME_IN_DIRECTORY), StandardCharsets.UTF_8))
                .as("without native keyed state the format stays version 1").contains("\"version\" : 1").doesNotContain("nativeKeyedState");
    }

    @Test
    void whenOperatorKeyDiffersFromItsId_thenRejectedOnWrite() {
        CheckpointMetadata wrong = new CheckpointMetadata(1, 0, false, "job", 128,
                Map.of("a", new OperatorSnapshot("b", "B", 1, List.of())));

        assertThatThrownBy(() -> MetadataFormat.write(wrong, NAME_IN_DIRECTORY)).hasMessageContaining("'a' differs from its operatorId 'b'");
    }
}
