package io.millrace.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.runtime.checkpoint.CrashLoop;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exactly-once proof for the joins: {@link JoinCrashLoopJob} (an interval join and an event-time temporal join
 * into exactly-once file sinks) runs in a child JVM that is killed with SIGKILL at random moments, again and again,
 * and started each time with the same checkpoint directory and nothing else. What the sinks committed must equal the
 * joins computed directly from the inputs: every pair and every versioned reading once, nothing more.
 */
public class JoinCrashLoopIT {
    static final long READINGS = 150_000;
    static final double RATE = 10_000;

    @TempDir
    protected Path dir;

    /** The state backend's arguments for the job: none for the heap; millrace-rocksdb runs this test again on RocksDB. */
    protected List<String> backendArgs() {
        return List.of();
    }

    protected int kills() {
        return 12;
    }

    @Test
    void whenKilledAtRandomMoments_thenBothJoinsCommitEveryResultExactlyOnce() throws Exception {
        List<String> backend = backendArgs();
        CrashLoop.killRepeatedly(dir, kills(), 0x701L,
                () -> CrashLoop.start(dir, JoinCrashLoopJob.class, backend, Long.toString(READINGS), Double.toString(RATE)));

        List<String> interval = ExactlyOnceRecoveryIT.readLines(dir.resolve("interval"));
        List<String> expectedInterval = intervalJoin(READINGS);
        assertThat(expectedInterval).as("the interval join has pairs to find").hasSizeGreaterThan(10_000);
        JoinEquivalenceIT.assertSamePairs(interval, expectedInterval, "interval join after " + kills() + " kills");

        List<String> temporal = ExactlyOnceRecoveryIT.readLines(dir.resolve("temporal"));
        List<String> expectedTemporal = temporalJoin(READINGS);
        assertThat(expectedTemporal).as("most readings find a version").filteredOn(s -> !s.endsWith(" none")).hasSizeGreaterThan((int) (READINGS * 9 / 10));
        JoinEquivalenceIT.assertSamePairs(temporal, expectedTemporal, "temporal join after " + kills() + " kills");
    }

    /** Each reading with the pressure readings of its machine at most 30 ms before or after it. */
    static List<String> intervalJoin(long readings) {
        long pressures = readings / JoinCrashLoopJob.PRESSURE_EVERY;
        List<String> pairs = new ArrayList<>();
        for (long i = 0; i < readings; i++) {
            long t = JoinCrashLoopJob.readingTime(i);
            for (long j = Math.max(0, (t - 40) / 20); j <= (t + 30) / 20 + 1 && j < pressures; j++) {
                long d = JoinCrashLoopJob.pressureTime(j) - t;
                if (d >= -30 && d <= 30 && JoinCrashLoopJob.machine(i) == JoinCrashLoopJob.machine(j)) {
                    pairs.add("I " + i + " " + j);
                }
            }
        }
        return pairs;
    }

    /** Each reading with its machine's newest version at or before the reading's time, or none. */
    static List<String> temporalJoin(long readings) {
        long versions = readings / JoinCrashLoopJob.VERSION_EVERY;
        List<String> rows = new ArrayList<>();
        for (long i = 0; i < readings; i++) {
            long t = JoinCrashLoopJob.readingTime(i);
            long found = -1;
            for (long k = Math.min(versions - 1, Math.max(0, (t - 3) / 500 + 1)); k >= 0; k--) {
                if (JoinCrashLoopJob.machine(k) == JoinCrashLoopJob.machine(i) && JoinCrashLoopJob.versionTime(k) <= t) {
                    found = k;
                    break;
                }
            }
            rows.add("T " + i + " " + (found < 0 ? "none" : Long.toString(found)));
        }
        return rows;
    }
}
