package io.millrace.runtime.checkpoint;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exactly-once proof: a job in a child JVM is killed with SIGKILL at random moments, 20 times,
 * and started again each time with the same checkpoint directory and nothing else. The committed
 * output must equal the uninterrupted result: nothing lost, nothing twice.
 */
class CrashLoopIT {
    private static final int KILLS = 20;

    @TempDir
    Path dir;

    @Test
    void whenKilledAtRandomMoments_thenCommittedOutputHasEveryResultExactlyOnce() throws Exception {
        new CrashLoop(dir).run(KILLS, 11, 200_000, 20_000, 0);
    }

    @Test
    void whenKilledAtRandomMoments_withHeapValuesKeptSerialized_thenCommittedOutputHasEveryResultExactlyOnce() throws Exception {
        new CrashLoop(dir, "heap", "state.heap.values=serialized").run(KILLS, 13, 200_000, 20_000, 0);
    }

    @Test
    void whenKilledUnderBackpressure_thenCommittedOutputHasEveryResultExactlyOnce() throws Exception {
        new CrashLoop(dir).run(KILLS, 12, 100_000, 50_000, 20);
    }
}
