package io.millrace.connector.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.Row;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.jdbc.server.PostgresServer;
import io.millrace.connector.jdbc.server.PostgresTestServer;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import io.millrace.testing.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PostgresCdcSource} against a real server: the changelog a job commits to an exactly-once file sink, applied
 * to a map, equals the table, with every change once and in order per key, for changes made before the job (the
 * snapshot), while it runs and while it is stopped (the job restored from its checkpoint); the slot's confirmed
 * position follows the checkpoints.
 */
class PostgresCdcSourceIT {
    @RegisterExtension
    static final PostgresServer PG = new PostgresServer();

    @TempDir
    Path dir;

    static PostgresCdcSource.Builder source(PostgresTestServer server, String slot) {
        return PostgresCdcSource.builder().url(server.url()).user(server.user()).table("items").slot(slot);
    }

    /** The job: the source's changes as lines, into an exactly-once file sink under {@code out}. */
    static Pipeline job(Path dir, PostgresCdcSource source) {
        PipelineConfig config = new PipelineConfig().parallelism(1);
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(200));
        Pipeline p = Pipeline.create(config);
        p.fromSource(source, WatermarkStrategy.<Row>noWatermarks(), "items").uid("items")
                .map(CdcChangelog::line).uid("lines")
                .sinkTo(TransactionalFileSink.of(dir.resolve("out"), ExactlyOnceRecoveryIT.LINES)).uid("out");
        return p;
    }

    static List<String> committed(Path dir) {
        try {
            return Files.isDirectory(dir.resolve("out")) ? ExactlyOnceRecoveryIT.readLines(dir.resolve("out")) : List.of();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static String confirmedFlush(PostgresTestServer server, String slot) {
        return Tables.rows(server, "SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = '" + slot + "'").get(0);
    }

    static long lsnBytes(PostgresTestServer server, String lsn) {
        return Long.parseLong(Tables.rows(server, "SELECT pg_wal_lsn_diff('" + lsn + "', '0/0')::bigint").get(0));
    }

    static String insertLsn(PostgresTestServer server) {
        return Tables.rows(server, "SELECT pg_current_wal_insert_lsn()").get(0);
    }

    /** Whether the committed changelog gives the table; throws the job's error if it failed. */
    boolean caughtUp(JobHandle running, PostgresTestServer server) {
        if (running.isDone()) {
            try {
                running.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            throw new AssertionError("the job ended early");
        }
        return CdcChangelog.apply(committed(dir)).equals(CdcChangelog.table(server));
    }

    @Test
    void whenChangedBeforeWhileRunningAndWhileStopped_thenEveryChangeArrivesOnceInOrder_andTheSlotFollowsTheCheckpoints() throws Exception {
        PostgresTestServer server = PG.server();
        server.execute(CdcChangelog.CREATE);
        CdcChangelog.Workload workload = new CdcChangelog.Workload(37);
        try (Connection c = server.connect()) {
            workload.run(c, 40); // before the job: the snapshot has them
        }
        JobHandle running = job(dir, source(server, "items_cdc").build()).executeAsync("cdc");
        Await.until("the snapshot is committed", Duration.ofSeconds(60), () -> caughtUp(running, server));
        String afterSnapshot = confirmedFlush(server, "items_cdc");

        try (Connection c = server.connect()) {
            workload.run(c, 80); // while it runs
        }
        Await.until("the changes made while the job runs are committed", Duration.ofSeconds(60), () -> caughtUp(running, server));
        String written = insertLsn(server);
        Await.until("the slot's confirmed position passes the changes once checkpoints complete", Duration.ofSeconds(30),
                () -> lsnBytes(server, confirmedFlush(server, "items_cdc")) > lsnBytes(server, afterSnapshot));
        running.cancel();
        running.await();
        long confirmedWhenStopped = lsnBytes(server, confirmedFlush(server, "items_cdc"));
        assertThat(confirmedWhenStopped).as("confirmed flush never passes what was written").isLessThanOrEqualTo(lsnBytes(server, written));

        try (Connection c = server.connect()) {
            workload.run(c, 80); // while it is stopped
        }
        String end = insertLsn(server);
        try (Connection c = server.connect()) {
            workload.run(c, 1);
        }
        job(dir, source(server, "items_cdc").endAfter(end).build()).execute("cdc restored"); // resumes from its checkpoint

        List<String> changelog = committed(dir);
        Map<Integer, String> applied = CdcChangelog.apply(changelog); // fails on a change twice or out of order
        assertThat(applied).isEqualTo(CdcChangelog.table(server));
        assertThat(changelog).as("inserts, updates and deletes all came").anyMatch(l -> l.startsWith("-U")).anyMatch(l -> l.startsWith("-D"))
                .anyMatch(l -> l.startsWith("+U"));
        assertThat(Tables.rows(server, "SELECT count(*) FROM items").get(0)).isNotEqualTo("0");
        assertThat(lsnBytes(server, confirmedFlush(server, "items_cdc"))).as("the restored job confirmed its checkpoints too")
                .isGreaterThan(confirmedWhenStopped);
        server.execute("SELECT pg_drop_replication_slot('items_cdc')", "DROP TABLE items", "DROP SEQUENCE item_seq");
    }
}
