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
                "--child-heap", "256m"), new PrintStream(bytes, true, StandardCharsets.UTF_8));

        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).filteredOn(l -> l.contains("part=throughput") && l.contains(" cost_pct=") && l.contains("cpu_cost_pct=")).hasSize(2);
        assertThat(lines).filteredOn(l -> l.contains("part=state") && l.contains("duration_ms=")).hasSize(1)
                .allSatisfy(l -> assertThat(l).doesNotContain("bytes=0 "));
        assertThat(lines).filteredOn(l -> l.contains("part=recovery")).singleElement()
                .satisfies(l -> assertThat(l).contains("restart_to_first_correct_ms=").doesNotContain("sample_count=1 "));
    }
}
