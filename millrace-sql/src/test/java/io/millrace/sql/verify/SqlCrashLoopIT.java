package io.millrace.sql.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.runtime.checkpoint.CrashLoop;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once for SQL: {@link SqlCrashLoopJob} (a windowed aggregation from {@code datagen} into a {@code filesystem}
 * table) runs in a child JVM killed with SIGKILL at random moments after it has checkpointed, twenty times, started each time with nothing but
 * the same directory; then once more to the end. The committed rows must be exactly the windows computed directly
 * from the generated ids: each (machine, window) once, with its count and sum.
 */
class SqlCrashLoopIT {
    static final long ROWS = 400_000;
    static final int KILLS = 20;
    static final Pattern LINE = Pattern.compile(
            "\\{\"machine\":(\\d+),\"window_start\":(\\d+),\"readings\":(\\d+),\"ids\":(\\d+)}");

    @TempDir
    Path dir;

    @Test
    void whenKilledTwentyTimes_thenEveryWindowIsCommittedExactlyOnce() throws Exception {
        // a SQL job plans its statements before it runs: each run is killed only once it has completed a checkpoint
        // of its own, at a random moment up to 1.2 s later, so that every kill cuts into the stream, not the start
        CrashLoop.killAfterEachCheckpoint(dir.resolve("checkpoints").resolve("checkpoints"), KILLS, 0x5C1L, 1_200,
                () -> CrashLoop.start(dir, SqlCrashLoopJob.class, List.of(), Long.toString(ROWS)));
        assertThat(lines()).as("windows committed while the job was being killed: it resumed mid-stream").isNotEmpty();

        Process last = CrashLoop.start(dir, SqlCrashLoopJob.class, List.of(), Long.toString(ROWS));
        assertThat(last.waitFor(120, TimeUnit.SECONDS)).as("the last run finishes").isTrue();
        assertThat(last.exitValue()).as("exit code of the last run, see %s", dir.resolve("job.log")).isZero();

        TreeMap<String, String> committed = new TreeMap<>();
        for (String line : lines()) {
            Matcher m = LINE.matcher(line);
            assertThat(m.matches()).as("committed line %s", line).isTrue();
            String window = m.group(1) + "@" + m.group(2);
            String previous = committed.put(window, m.group(3) + " " + m.group(4));
            assertThat(previous).as("window %s committed twice", window).isNull();
        }
        assertThat(committed).isEqualTo(expected());
    }

    private List<String> lines() throws Exception {
        Path out = dir.resolve("out");
        return Files.isDirectory(out) ? ExactlyOnceRecoveryIT.readLines(out) : new ArrayList<>();
    }

    /** Per machine and window start: how many ids and their sum, from the ids alone. */
    private static TreeMap<String, String> expected() {
        long origin = java.time.LocalDateTime.parse("2026-01-01T00:00:00").toInstant(java.time.ZoneOffset.UTC).toEpochMilli();
        long[][] count = new long[SqlCrashLoopJob.MACHINES][(int) (ROWS / SqlCrashLoopJob.RATE) + 1];
        long[][] sum = new long[SqlCrashLoopJob.MACHINES][count[0].length];
        for (long id = 0; id < ROWS; id++) {
            int machine = (int) (id % SqlCrashLoopJob.MACHINES);
            int window = (int) (id / SqlCrashLoopJob.RATE);
            count[machine][window]++;
            sum[machine][window] += id;
        }
        TreeMap<String, String> windows = new TreeMap<>();
        for (int m = 0; m < SqlCrashLoopJob.MACHINES; m++) {
            for (int w = 0; w < count[m].length; w++) {
                if (count[m][w] > 0) {
                    windows.put(m + "@" + (origin + w * 1000L), count[m][w] + " " + sum[m][w]);
                }
            }
        }
        return windows;
    }
}
