package io.millrace.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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

    private Process start(long events, double rate, long slowMicros) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"), CrashLoopJob.class.getName(),
                dir.toString(), Long.toString(events), Double.toString(rate), Long.toString(slowMicros))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("job.log").toFile())
                .start();
    }

    private void crashLoop(long seed, long events, double rate, long slowMicros) throws Exception {
        Random random = new Random(seed);
        int kills = 0;
        for (int run = 0; kills < KILLS; run++) {
            Process job = start(events, rate, slowMicros);
            long lifetime = 400 + random.nextInt(900);
            if (job.waitFor(lifetime, TimeUnit.MILLISECONDS)) {
                assertThat(job.exitValue()).as("job exited early with its own error, see %s", dir.resolve("job.log")).isZero();
                break; // finished before the kill: nothing left to kill
            }
            job.destroyForcibly(); // SIGKILL
            job.waitFor(30, TimeUnit.SECONDS);
            kills++;
        }
        Process last = start(events, rate, slowMicros);
        assertThat(last.waitFor(120, TimeUnit.SECONDS)).as("the last run finishes").isTrue();
        assertThat(last.exitValue()).as("exit code of the last run, see %s", dir.resolve("job.log")).isZero();
        assertThat(kills).as("kills before the job could finish").isEqualTo(KILLS);

        ExactlyOnceRecoveryIT.assertRunningCountsExact(ExactlyOnceRecoveryIT.readLines(dir.resolve("counts")), events);
        List<String> windows = ExactlyOnceRecoveryIT.readLines(dir.resolve("windows"));
        assertThat(windows).hasSize((int) (events / 1000 * ExactlyOnceRecoveryIT.KEYS));
        assertThat(windows.stream().mapToLong(Long::parseLong).sum()).isEqualTo(events);
    }

    @Test
    void whenKilledAtRandomMoments_thenCommittedOutputHasEveryResultExactlyOnce() throws Exception {
        crashLoop(11, 200_000, 20_000, 0);
    }

    @Test
    void whenKilledUnderBackpressure_thenCommittedOutputHasEveryResultExactlyOnce() throws Exception {
        crashLoop(12, 100_000, 50_000, 20);
    }
}
