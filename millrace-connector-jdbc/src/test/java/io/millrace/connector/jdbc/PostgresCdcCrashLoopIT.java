package io.millrace.connector.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.connector.jdbc.server.PostgresServer;
import io.millrace.connector.jdbc.server.PostgresTestServer;
import io.millrace.runtime.checkpoint.CrashLoop;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.time.Duration;
import io.millrace.testing.Await;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CdcCrashLoopJob} killed with SIGKILL twelve times while a writer keeps changing the table, then run once more
 * until it has caught up: the changelog committed by the exactly-once file sink, applied to a map, equals the table, with every change
 * once and in order per key; and the slot's confirmed position moved on.
 */
class PostgresCdcCrashLoopIT {
    @RegisterExtension
    static final PostgresServer PG = new PostgresServer();

    static final int KILLS = 12;

    @TempDir
    Path dir;

    private String logTail() {
        String log;
        try {
            log = Files.readString(dir.resolve("job.log"));
        } catch (java.io.IOException e) {
            return e.toString();
        }
        return log.substring(Math.max(0, log.length() - 6000));
    }

    @Test
    void whenKilledTwelveTimesWhileTheTableChanges_thenTheAppliedChangelogEqualsTheTable() throws Exception {
        PostgresTestServer server = PG.server();
        server.execute(CdcChangelog.CREATE);
        CdcChangelog.Workload workload = new CdcChangelog.Workload(4711);
        try (Connection c = server.connect()) {
            workload.run(c, 30);
        }
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger transactions = new AtomicInteger();
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try (Connection c = server.connect()) {
                while (writing.get()) {
                    workload.run(c, 1);
                    transactions.incrementAndGet();
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // pacing: about 100 transactions a second
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        // core's CrashLoop.killRepeatedly kills after 0.4 to 1.3 s, mostly before a run's first checkpoint here (a run
        // connects and takes the snapshot first): the runs live 2 to 4 s, started with CrashLoop.start
        Random random = new Random(37);
        int killed = 0;
        while (killed < KILLS) {
            Process job = CrashLoop.start(dir, CdcCrashLoopJob.class, List.of(), server.url(), "items_crash");
            if (job.waitFor(2000 + random.nextInt(2000), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("the job exited by itself with " + job.exitValue() + ", see " + dir.resolve("job.log"));
            }
            job.destroyForcibly(); // SIGKILL
            assertThat(job.waitFor(30, TimeUnit.SECONDS)).isTrue();
            killed++;
        }
        writing.set(false);
        writer.join();
        int committedBeforeTheLastRun = PostgresCdcSourceIT.committed(dir).size();
        Process last = CrashLoop.start(dir, CdcCrashLoopJob.class, List.of(), server.url(), "items_crash");
        try {
            Map<Integer, String> table = CdcChangelog.table(server);
            Await.until("the last run commits the changes up to the table's contents", Duration.ofSeconds(90), () -> {
                assertThat(last.isAlive()).as("the last run is alive; the log ends with %s", logTail()).isTrue();
                return CdcChangelog.apply(PostgresCdcSourceIT.committed(dir)).equals(table); // fails on a change twice
            });
        } finally {
            last.destroyForcibly();
            last.waitFor(30, TimeUnit.SECONDS);
        }
        List<String> changelog = PostgresCdcSourceIT.committed(dir);
        assertThat(committedBeforeTheLastRun).as("changes committed by the killed runs").isPositive().isLessThan(changelog.size());
        assertThat(transactions.get()).as("transactions written during the kills").isGreaterThan(100);
        assertThat(CdcChangelog.apply(changelog)).as("the applied changelog").isEqualTo(CdcChangelog.table(server));
        assertThat(PostgresCdcSourceIT.lsnBytes(server, PostgresCdcSourceIT.confirmedFlush(server, "items_crash"))).isPositive();
        org.slf4j.LoggerFactory.getLogger(PostgresCdcCrashLoopIT.class).info("{} changes, {} committed before the last run, {} transactions during the kills",
                changelog.size(), committedBeforeTheLastRun, transactions.get());
    }
}
