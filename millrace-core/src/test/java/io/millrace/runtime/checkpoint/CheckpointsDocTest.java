package io.millrace.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.runtime.checkpoint.CheckpointMetadata.OperatorSnapshot;
import io.millrace.runtime.checkpoint.CheckpointMetadata.SubtaskSnapshot;
import io.millrace.runtime.state.StateHandle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The {@code _metadata} example of docs/checkpoints.md is exactly what the storage writes, checksum included. */
class CheckpointsDocTest {
    private static final Pattern EXAMPLE = Pattern.compile("<!-- metadata-example -->\\s*\\n```json\\n(.*?)\\n```", Pattern.DOTALL);

    static CheckpointMetadata example() {
        SubtaskSnapshot subtask0 = new SubtaskSnapshot(0, 0, new long[] {0, 412, 958},
                new StateHandle("chk-12/max-temperature-0.keyed", 1437, 0x5d1e2f07L), null);
        SubtaskSnapshot source0 = new SubtaskSnapshot(0, 0, null, null, new StateHandle("chk-12/sensors-0.op", 96, 0x0a44c1b3L));
        return new CheckpointMetadata(12, 1_767_225_600_000L, false, "factory-floor", 128, Map.of(
                "max-temperature", new OperatorSnapshot("max-temperature", "max temperature per machine", 1, List.of(subtask0)),
                "sensors", new OperatorSnapshot("sensors", "sensor source", 1, List.of(source0))));
    }

    @Test
    void metadataExample_isWhatTheStorageWrites_andReadsBack() throws IOException {
        Path doc = docs().resolve("checkpoints.md");
        Matcher matcher = EXAMPLE.matcher(Files.readString(doc, StandardCharsets.UTF_8));
        assertThat(matcher.find()).as("a ```json block after <!-- metadata-example --> in " + doc).isTrue();

        String written = new String(MetadataFormat.write(example(), h -> h.path().substring("chk-12/".length())), StandardCharsets.UTF_8);

        assertThat(matcher.group(1)).isEqualTo(written);
        assertThat(MetadataFormat.read(matcher.group(1).getBytes(StandardCharsets.UTF_8), name -> "chk-12/" + name))
                .usingRecursiveComparison().isEqualTo(example());
    }

    private static Path docs() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("docs"))) {
            p = p.getParent();
        }
        assertThat(p).as("a docs/ directory above the working directory").isNotNull();
        return p.resolve("docs");
    }
}
