package io.millrace.connector.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.Row;
import io.millrace.api.table.TemporalJoin;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.connector.jdbc.server.PostgresServer;
import io.millrace.connector.jdbc.server.PostgresTestServer;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import io.millrace.testing.Await;
import java.io.Serializable;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readings joined, by event time, with the version of their machine's row in PostgreSQL valid at the reading's time,
 * while the rows are edited: {@link TemporalJoin} of the readings with {@link PostgresCdcSource}'s changelog of
 * {@code machines} (each change at its commit time) equals a batch recomputation from the table's history, which a
 * trigger records with each transaction's id, and the server's commit timestamps of those transactions.
 */
class PostgresCdcTemporalJoinIT {
    @RegisterExtension
    static final PostgresServer PG = new PostgresServer();

    static final int MACHINES = 6;

    @TempDir
    Path dir;

    /** A reading of a machine at an event time. */
    public record Reading(String machine, long time) implements Serializable {}

    @Test
    void whenTheMachinesAreEditedWhileTheJobRuns_thenEachReadingIsJoinedWithTheVersionValidAtItsTime() throws Exception {
        PostgresTestServer server = PG.server();
        server.execute("CREATE TABLE machines (id text PRIMARY KEY, vlimit double precision NOT NULL)",
                "CREATE TABLE machine_history (n bigserial, id text, vlimit double precision, xid bigint)",
                "CREATE FUNCTION record_machine() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                        + " IF TG_OP = 'DELETE' THEN INSERT INTO machine_history (id, vlimit, xid) VALUES (OLD.id, NULL, txid_current());"
                        + " ELSE INSERT INTO machine_history (id, vlimit, xid) VALUES (NEW.id, NEW.vlimit, txid_current()); END IF;"
                        + " RETURN NULL; END $$",
                "CREATE TRIGGER history AFTER INSERT OR UPDATE OR DELETE ON machines FOR EACH ROW EXECUTE FUNCTION record_machine()",
                "INSERT INTO machines SELECT 'M' || n, 4.0 + n FROM generate_series(1, " + (MACHINES - 1) + ") n");
        long now = Long.parseLong(Tables.rows(server, "SELECT floor(extract(epoch from clock_timestamp()) * 1000)::bigint").get(0));
        long t0 = now + 8_000; // after the job has started and read the snapshot
        long t1 = t0 + 4_000;
        Random random = new Random(37);
        List<Reading> readings = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            readings.add(new Reading("M" + (1 + random.nextInt(MACHINES)), t0 + random.nextInt((int) (t1 - t0))));
        }
        readings.sort(Comparator.comparingLong(Reading::time));

        PostgresCdcSource source = PostgresCdcSource.builder().url(server.url()).user(server.user()).table("machines")
                .slot("machines_join").statusInterval(Duration.ofSeconds(1)).build();
        PipelineConfig config = new PipelineConfig().parallelism(2);
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(200));
        Pipeline p = Pipeline.create(config);
        // the readings never end (a job with an ended task completes no more checkpoints): after the planned ones come
        // readings of no machine later than every edit, which keep the readings' watermark going and are left out
        int planned = readings.size();
        GeneratorSource<Reading> readingSource = GeneratorSource.<Reading>builder(i -> i < planned ? readings.get((int) i)
                        : new Reading("tail", t1 + 1_000 + i - planned))
                .ratePerSecond(2_000).timestamps(i -> i < planned ? readings.get((int) i).time() : t1 + 1_000 + i - planned).build();
        // tag::cdc-temporal-join[]
        DataStream<Reading> vibration = p.fromSource(readingSource, WatermarkStrategy.<Reading>monotonous(), "readings").parallelism(1)
                .filter(r -> !r.machine().equals("tail"));
        DataStream<Row> machines = p.fromSource(source, WatermarkStrategy.<Row>monotonous()
                .withTimestampAssigner((row, commitTime) -> commitTime), "machines");   // each change at its commit time
        DataStream<String> joined = TemporalJoin
                .of(vibration.keyBy(Reading::machine), machines.keyBy(row -> row.getString(0)))
                .leftOuter((r, machine) -> r.machine() + "|" + r.time() + "|" + (machine == null ? "none" : machine.getDouble(1)));
        // end::cdc-temporal-join[]
        joined.sinkTo(TransactionalFileSink.of(dir.resolve("out"), ExactlyOnceRecoveryIT.LINES)).uid("out");
        JobHandle job = p.executeAsync("temporal join");
        try {
            Await.until("the source has its slot", Duration.ofSeconds(30),
                    () -> !Tables.rows(server, "SELECT 1 FROM pg_replication_slots WHERE slot_name = 'machines_join' AND active").isEmpty());
            assertThat(System.currentTimeMillis()).as("the job read its snapshot before the readings' first time").isLessThan(t0);
            Await.until("the edits' window starts", Duration.ofSeconds(30), () -> System.currentTimeMillis() >= t0);
            try (Connection c = server.connect()) {
                Set<String> held = new HashSet<>();
                for (int m = 1; m < MACHINES; m++) {
                    held.add("M" + m);
                }
                while (System.currentTimeMillis() < t1) {
                    edit(c, random, held);
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // pacing: edits spread over the window
                }
                Await.until("the window ends", Duration.ofSeconds(5), () -> System.currentTimeMillis() > t1 + 50);
                // a last change after every reading: the changelog's watermark passes them all
                server.execute("UPDATE machines SET vlimit = vlimit + 100 WHERE id = (SELECT min(id) FROM machines)");
            }
            Await.until("every reading is joined and committed", Duration.ofSeconds(60), () -> {
                assertThat(job.isDone()).as("the job is running").isFalse();
                return PostgresCdcSourceIT.committed(dir).size() >= readings.size();
            });
        } finally {
            job.cancel();
            job.await();
        }
        List<String> expected = batch(server, readings);
        assertThat(expected).as("readings of deleted or never inserted machines").anyMatch(l -> l.endsWith("|none"));
        assertThat(expected.stream().map(l -> l.substring(l.lastIndexOf('|'))).distinct().count()).as("versions met").isGreaterThan(10);
        assertThat(PostgresCdcSourceIT.committed(dir)).containsExactlyInAnyOrderElementsOf(expected);
        server.execute("SELECT pg_drop_replication_slot('machines_join')");
    }

    /** Updates, deletes or re-inserts a random machine, one transaction each. */
    private static void edit(Connection c, Random random, Set<String> held) throws Exception {
        String m = "M" + (1 + random.nextInt(MACHINES));
        int op = random.nextInt(10);
        String sql;
        if (!held.contains(m)) {
            sql = "INSERT INTO machines VALUES (?, ?)";
            held.add(m);
        } else if (op < 8) {
            sql = "UPDATE machines SET vlimit = ? WHERE id = ?";
        } else {
            sql = "DELETE FROM machines WHERE id = ?";
            held.remove(m);
        }
        try (PreparedStatement s = c.prepareStatement(sql)) {
            double limit = Math.round(random.nextDouble() * 100) / 10.0;
            if (sql.startsWith("INSERT")) {
                s.setString(1, m);
                s.setDouble(2, limit);
            } else if (sql.startsWith("UPDATE")) {
                s.setDouble(1, limit);
                s.setString(2, m);
            } else {
                s.setString(1, m);
            }
            s.executeUpdate();
        }
    }

    /**
     * The join computed from the history: each reading with the latest version of its machine committed at or before
     * its time (of equal commit times the later recorded), "none" when there is none or it is a delete.
     */
    private static List<String> batch(PostgresTestServer server, List<Reading> readings) {
        List<String[]> history = new ArrayList<>();
        for (String row : Tables.rows(server, "SELECT id, vlimit, floor(extract(epoch from pg_xact_commit_timestamp((xid % 4294967296)::text::xid))"
                + " * 1000)::bigint FROM machine_history ORDER BY n")) {
            history.add(row.split("\\|"));
        }
        List<String> expected = new ArrayList<>();
        for (Reading r : readings) {
            String version = "none";
            long best = Long.MIN_VALUE;
            for (String[] h : history) {
                long at = Long.parseLong(h[2]);
                if (h[0].equals(r.machine()) && at <= r.time() && at >= best) {
                    best = at;
                    version = h[1].equals("null") ? "none" : String.valueOf(Double.parseDouble(h[1]));
                }
            }
            expected.add(r.machine() + "|" + r.time() + "|" + version);
        }
        return expected;
    }
}
