package io.millrace.connector.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.connector.jdbc.server.PostgresServer;
import io.millrace.connector.jdbc.server.PostgresTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PostgresCrashLoopJob} in a child JVM, killed with SIGKILL at random moments 20 times and started again each
 * time with nothing but its checkpoint directory, then run to the end: the append sink's table has every number
 * exactly once, the upsert sink's table is exactly the last three counts of every key, and no prepared transaction is
 * left on the server.
 */
class PostgresCrashLoopIT {
    @RegisterExtension
    static final PostgresServer PG = new PostgresServer();

    static final int KILLS = 20;
    static final long EVENTS = 40_000;
    /** The killed runs' rate: 20 runs of one to three seconds (of which a part goes to starting) write only part of the input. */
    static final double RATE = 1_500;

    @TempDir
    Path dir;

    @Test
    void whenKilledTwentyTimes_thenTheAppendTableHasEveryRowOnce_theUpsertTableIsExact_andNothingIsLeftPrepared() throws Exception {
        PostgresTestServer server = PG.server();
        server.execute(PostgresCrashLoopJob.CREATE_TABLES);
        Random random = new Random(37);
        int killed = 0;
        int killsLeavingPreparedTransactions = 0;
        long committedBeforeTheLastRun;
        while (killed < KILLS) {
            Process job = start(server, RATE);
            if (job.waitFor(1000 + random.nextInt(2000), TimeUnit.MILLISECONDS)) {
                assertThat(job.exitValue()).as("job exited early with its own error, see %s", dir.resolve("job.log")).isZero();
                break;
            }
            job.destroyForcibly(); // SIGKILL
            assertThat(job.waitFor(30, TimeUnit.SECONDS)).isTrue();
            killed++;
            killsLeavingPreparedTransactions += Tables.prepared(server).isEmpty() ? 0 : 1;
        }
        committedBeforeTheLastRun = Tables.count(server, "events");
        Process last = start(server, 0);
        assertThat(last.waitFor(120, TimeUnit.SECONDS)).as("the last run finishes, see %s", dir.resolve("job.log")).isTrue();
        assertThat(last.exitValue()).as("exit code of the last run, see %s", dir.resolve("job.log")).isZero();
        assertThat(killed).as("kills before the job could finish").isEqualTo(KILLS);
        assertThat(committedBeforeTheLastRun).as("rows committed by the killed runs: the kills fell mid-stream").isBetween(1L, EVENTS - 1);
        assertThat(Files.readString(dir.resolve("job.log"))).contains("FINISHED");
        org.slf4j.LoggerFactory.getLogger(PostgresCrashLoopIT.class).info("{} of {} kills left prepared transactions for the next run;"
                + " {} of {} rows were committed before the last run", killsLeavingPreparedTransactions, killed, committedBeforeTheLastRun, EVENTS);

        assertExact(server, EVENTS);
    }

    /** Every number once in {@code events}; the last three counts of each key in {@code counts}; nothing prepared. */
    static void assertExact(PostgresTestServer server, long events) {
        assertThat(Tables.rows(server, "SELECT count(*), count(DISTINCT n), min(n), max(n) FROM events"))
                .as("the append sink's table").containsExactly(events + "|" + events + "|0|" + (events - 1));
        assertThat(Tables.rows(server, "SELECT count(*) FROM events WHERE k <> n % " + PostgresCrashLoopJob.KEYS)).containsExactly("0");
        List<String> expected = new ArrayList<>();
        long perKey = events / PostgresCrashLoopJob.KEYS;
        for (int k = 0; k < PostgresCrashLoopJob.KEYS; k++) {
            for (long c = perKey - 2; c <= perKey; c++) {
                expected.add((k * 1_000_000L + c) + "|" + k + "|" + c);
            }
        }
        assertThat(Tables.rows(server, "SELECT id, k, c FROM counts ORDER BY id")).as("the upsert sink's table").containsExactlyElementsOf(expected);
        assertThat(Tables.prepared(server)).as("prepared transactions left on the server").isEmpty();
    }

    private Process start(PostgresTestServer server, double rate) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                PostgresCrashLoopJob.class.getName(), server.url(), dir.toString(), Long.toString(EVENTS), Double.toString(rate))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("job.log").toFile()))
                .start();
    }
}
