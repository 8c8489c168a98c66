package io.millrace.bench.millrace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checkpoint benchmark on tiny sizes prints every figure, and a killed and restarted job continues its counts. */
class CheckpointCostSmokeTest {
    @Test
    void onTinySizes_everyPartPrintsItsFigures_andTheRestartedJobIsCorrect() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CheckpointCost.run(CheckpointCost.options("--events", "20k", "--rounds", "1", "--keys", "5k", "--checkpoints", "1",
                "--child-heap", "256m", "--fill-ms", "300"), new PrintStream(bytes, true, StandardCharsets.UTF_8));

        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).filteredOn(l -> l.contains("part=throughput") && l.contains(" cost_pct=") && l.contains("cpu_cost_pct=")).hasSize(2);
        assertThat(lines).filteredOn(l -> l.contains("part=state") && l.contains("duration_ms=")).hasSize(1)
                .allSatisfy(l -> assertThat(l).doesNotContain("bytes=0 "));
        assertThat(lines).filteredOn(l -> l.contains("part=recovery")).singleElement()
                .satisfies(l -> assertThat(l).contains("restart_to_first_correct_ms=").doesNotContain("sample_count=1 "));
        for (String setting : List.of("sized", "fixed-32", "fixed-4")) {
            assertThat(lines).filteredOn(l -> l.contains("part=backpressure setting=" + setting) && l.contains("mean_duration_ms="))
                    .singleElement().satisfies(l -> assertThat(l).doesNotContain("slow_stage_records=0"));
        }
    }

    @Test
    void rocksDbPart_onTinySizes_printsFullAndIncrementalFigures_andRestoresCorrectly() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CheckpointCost.run(CheckpointCost.options("--part", "rocksdb", "--keys", "5k", "--checkpoints", "2", "--pause-ms", "50"),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));

        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        for (String mode : List.of("full", "incremental")) {
            assertThat(lines).filteredOn(l -> l.contains("mode=" + mode) && l.contains("referenced_bytes=")).hasSize(2)
                    .allSatisfy(l -> assertThat(l).doesNotContain("written_bytes=0 "));
            assertThat(lines).filteredOn(l -> l.contains("mode=" + mode) && l.contains("restore_to_first_correct_ms=")).hasSize(1);
        }
    }
}
