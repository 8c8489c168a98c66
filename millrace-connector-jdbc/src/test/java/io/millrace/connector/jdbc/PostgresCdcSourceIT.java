package io.millrace.connector.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.DataStream;
import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.Row;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.FileSink;
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
        // tag::cdc-source[]
        return PostgresCdcSource.builder()
                .url(server.url()).user(server.user())  // a user with REPLICATION (here a superuser)
                .table("items")                          // name or schema.name; table(...) again for more tables
                .slot(slot);                             // created on a fresh start, used again on restore
        // end::cdc-source[]
    }

    /** The job: the source's changes as lines, into an exactly-once file sink under {@code out}. */
    static Pipeline job(Path dir, PostgresCdcSource source) {
        PipelineConfig config = new PipelineConfig().parallelism(1);
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(200));
        Pipeline p = Pipeline.create(config);
        // tag::cdc-job[]
        DataStream<Row> changes = p.fromSource(source, WatermarkStrategy.<Row>noWatermarks(), "items").uid("items");
        changes.map(CdcChangelog::line).uid("lines")             // +I|id|name|..., -U|..., +U|..., -D|...
                .sinkTo(TransactionalFileSink.of(dir.resolve("out"), ExactlyOnceRecoveryIT.LINES)).uid("out");
        // end::cdc-job[]
        return p;
    }

    /**
     * The lines the file sink committed under {@code out}, in commit order: its files are named
     * {@code part-<subtask>-<checkpoint>-<n>.txt}, sorted here by checkpoint and n as numbers.
     */
    static List<String> committed(Path dir) {
        Path out = dir.resolve("out");
        if (!Files.isDirectory(out)) {
            return List.of();
        }
        try (var files = Files.list(out)) {
            List<Path> parts = files.filter(f -> f.getFileName().toString().startsWith("part-")).sorted(java.util.Comparator
                    .comparingLong((Path f) -> nameNumber(f, 2)).thenComparingLong(f -> nameNumber(f, 3))).toList();
            List<String> lines = new java.util.ArrayList<>();
            for (Path f : parts) {
                lines.addAll(Files.readAllLines(f));
            }
            return lines;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long nameNumber(Path file, int i) {
        String name = file.getFileName().toString();
        return Long.parseLong(name.substring(0, name.lastIndexOf('.')).split("-")[i]);
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
        JobHandle restored = job(dir, source(server, "items_cdc").build()).executeAsync("cdc restored"); // resumes from its checkpoint
        Await.until("the restored job catches up", Duration.ofSeconds(60), () -> caughtUp(restored, server));
        Await.until("the restored job confirms its checkpoints", Duration.ofSeconds(30),
                () -> lsnBytes(server, confirmedFlush(server, "items_cdc")) > confirmedWhenStopped);
        restored.cancel();
        restored.await();

        List<String> changelog = committed(dir);
        Map<Integer, String> applied = CdcChangelog.apply(changelog); // fails on a change twice or out of order
        assertThat(applied).isEqualTo(CdcChangelog.table(server));
        assertThat(changelog).as("inserts, updates and deletes all came").anyMatch(l -> l.startsWith("-U")).anyMatch(l -> l.startsWith("-D"))
                .anyMatch(l -> l.startsWith("+U"));
        assertThat(Tables.rows(server, "SELECT count(*) FROM items").get(0)).isNotEqualTo("0");
        server.execute("SELECT pg_drop_replication_slot('items_cdc')", "DROP TABLE items", "DROP SEQUENCE item_seq");
    }

    @Test
    void whenTheTableHasTheDefaultReplicaIdentity_thenUpdatesAreUpserts_andDeletesCarryTheKey() throws Exception {
        PostgresTestServer server = PG.server();
        server.execute("CREATE TABLE machines (id text PRIMARY KEY, line text NOT NULL, rpm integer NOT NULL)",
                "INSERT INTO machines VALUES ('m1', 'A', 1000), ('m2', 'A', 1100), ('m3', 'B', 900)");
        PostgresCdcSource source = PostgresCdcSource.builder().url(server.url()).user(server.user()).table("machines").slot("machines_cdc").build();
        assertThat(source.rowType("machines").toString()).isEqualTo("ROW<id STRING NOT NULL, line STRING, rpm INT>");
        assertThat(source.keyColumns("machines")).containsExactly("id");

        JobHandle job = job(dir, source).executeAsync("machines");
        Await.until("the snapshot is committed", Duration.ofSeconds(60), () -> committed(dir).size() == 3);
        try (Connection c = server.connect()) {
            c.setAutoCommit(false);
            try (var s = c.createStatement()) {
                s.execute("UPDATE machines SET rpm = 1200 WHERE id = 'm1'");
                s.execute("DELETE FROM machines WHERE id = 'm2'");
                s.execute("UPDATE machines SET id = 'm4' WHERE id = 'm3'");
            }
            c.commit();
        }
        Await.until("the transaction is committed", Duration.ofSeconds(60), () -> committed(dir).size() == 7 || job.isDone());
        job.cancel();
        job.await();
        List<String> lines = committed(dir);
        assertThat(lines.subList(0, 3)).as("the snapshot").containsExactlyInAnyOrder("+I|m1|A|1000", "+I|m2|A|1100", "+I|m3|B|900");
        assertThat(lines.subList(3, lines.size())).as("the transaction after the snapshot")
                .containsExactly("+U|m1|A|1200", "-D|m2|null|null", "-D|m3|null|null", "+I|m4|B|900");
        server.execute("SELECT pg_drop_replication_slot('machines_cdc')", "DROP TABLE machines");
    }

    @Test
    void whenTwoTablesAreCaptured_thenTheirChangesComeInCommitOrder_eachWithItsTablesRowType() throws Exception {
        PostgresTestServer server = PG.server();
        server.execute("CREATE TABLE lines_a (id integer PRIMARY KEY, name text NOT NULL)",
                "CREATE TABLE stations_b (id integer PRIMARY KEY, line integer NOT NULL, busy boolean NOT NULL)",
                "ALTER TABLE stations_b REPLICA IDENTITY FULL", "INSERT INTO lines_a VALUES (1, 'A')");
        PostgresCdcSource source = PostgresCdcSource.builder().url(server.url()).user(server.user())
                .table("lines_a").table("public.stations_b").slot("two_tables").build();
        JobHandle job = job(dir, source).executeAsync("two tables");
        Await.until("the snapshot is committed", Duration.ofSeconds(60), () -> committed(dir).size() == 1);
        try (Connection c = server.connect()) {
            c.setAutoCommit(false);
            try (var s = c.createStatement()) {
                s.execute("INSERT INTO stations_b VALUES (10, 1, false)");
                s.execute("UPDATE lines_a SET name = 'A2' WHERE id = 1");
                c.commit();
                s.execute("UPDATE stations_b SET busy = true WHERE id = 10");
                s.execute("DELETE FROM lines_a WHERE id = 1");
                c.commit();
            }
        }
        Await.until("the changes are committed", Duration.ofSeconds(60), () -> committed(dir).size() == 6 || job.isDone());
        job.cancel();
        job.await();
        assertThat(committed(dir)).containsExactly("+I|1|A", "+I|10|1|false", "+U|1|A2", "-U|10|1|false", "+U|10|1|true", "-D|1|null");
        assertThat(source.rowType("stations_b").toString()).isEqualTo("ROW<id INT NOT NULL, line INT NOT NULL, busy BOOLEAN NOT NULL>");
        server.execute("SELECT pg_drop_replication_slot('two_tables')", "DROP TABLE lines_a", "DROP TABLE stations_b");
    }

    @Test
    void whenEndAfterIsBeforeTheSnapshot_thenTheSourceEndsAfterTheSnapshot() throws Exception {
        PostgresTestServer server = PG.server();
        server.execute("CREATE TABLE lines (id integer PRIMARY KEY, name text)", "INSERT INTO lines VALUES (1, 'A'), (2, NULL)");
        PostgresCdcSource bounded = PostgresCdcSource.builder().url(server.url()).user(server.user()).table("lines")
                .slot("lines_cdc").endAfter(insertLsn(server)).build();
        assertThat(bounded.boundedness()).isEqualTo(io.millrace.api.source.Boundedness.BOUNDED);
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
        FileSink<String> out = FileSink.of(dir.resolve("lines"), ExactlyOnceRecoveryIT.LINES);
        p.fromSource(bounded, WatermarkStrategy.<Row>noWatermarks(), "lines").map(CdcChangelog::line).sinkTo(out);
        assertThat(p.executeAsync("lines").await(Duration.ofSeconds(60))).as("the bounded source ends").isNotNull();
        assertThat(Files.readAllLines(out.partFile(0))).containsExactlyInAnyOrder("+I|1|A", "+I|2|null");
        server.execute("SELECT pg_drop_replication_slot('lines_cdc')", "DROP TABLE lines");
    }

    @Test
    void whenOptionsAreWrong_thenTheErrorNamesTheOptionOrTheTable() {
        PostgresTestServer server = PG.server();
        server.execute("CREATE TABLE keyless (v integer)");
        assertThatThrownBy(() -> PostgresCdcSource.builder().url(server.url()).user(server.user()).table("keyless").slot("k").build())
                .hasMessageContaining("public.keyless").hasMessageContaining("REPLICA IDENTITY FULL");
        assertThatThrownBy(() -> PostgresCdcSource.builder().url(server.url()).user(server.user()).table("nowhere").slot("k").build())
                .hasMessageContaining("option 'table'").hasMessageContaining("nowhere");
        assertThatThrownBy(() -> PostgresCdcSource.builder().url(server.url()).user(server.user()).table("keyless").slot("Bad-Name").build())
                .hasMessageContaining("option 'slot'");
        server.execute("DROP TABLE keyless");
    }
}
