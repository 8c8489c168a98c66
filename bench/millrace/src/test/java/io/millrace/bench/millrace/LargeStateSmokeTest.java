package io.millrace.bench.millrace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The large-state job on a small number of keys: every key is counted exactly twice, with checkpoints taken meanwhile. */
class LargeStateSmokeTest {
    @TempDir
    Path dir;

    @Test
    void onFiftyThousandKeys_everyKeyReachesTwo_noCountGoesPast_andCheckpointsHoldTheState() throws Exception {
        LargeState.Outcome o = LargeState.run(LargeState.options("--keys", "50k", "--checkpoint-interval-ms", "50",
                "--managed-memory", "16mb", "--dir", dir.toString(),
                // paced to about a second so that checkpoints are taken meanwhile even on a fast machine (unpaced, the
                // job once ended before its first 50 ms checkpoint)
                "--rate", "100000"), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        assertThat(o.complete()).isEqualTo(50_000);
        assertThat(o.overCounted()).isZero();
        assertThat(o.correct()).isTrue();
        assertThat(o.checkpoints()).as("completed checkpoints").isNotEmpty();
        assertThat(o.checkpoints()).anySatisfy(c -> assertThat(c.bytes()).isPositive());
        assertThat(LargeState.line(o)).startsWith("LARGE_STATE keys=50000 events=100000 ").contains("correct=true");
    }
}
