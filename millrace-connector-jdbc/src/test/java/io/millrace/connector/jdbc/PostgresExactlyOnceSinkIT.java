package io.millrace.connector.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.Committer;
import io.millrace.api.sink.CommittingSinkWriter;
import io.millrace.api.time.Clock;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.connector.jdbc.server.PostgresServer;
import io.millrace.connector.jdbc.server.PostgresTestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import io.millrace.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exactly-once append sink against a real server: prepared at the barrier and invisible until the commit, and
 * every recovery path of its prepared transactions, driven by hand as the runtime drives them; then whole jobs.
 */
class PostgresExactlyOnceSinkIT {
    @RegisterExtension
    static final PostgresServer PG = new PostgresServer();

    static final RowType READING = RowType.builder()
            .field("seq", FieldType.BIGINT)
            .field("machine", FieldType.STRING)
            .field("temperature", FieldType.DOUBLE)
            .build();

    @TempDir
    Path dir;

    static PostgresTestServer server() {
        return PG.server();
    }

    private static PostgresSink<Row> sink(String table, String prefix) {
        return PostgresSink.builder(Columns.of(READING)).url(server().url()).user("millrace").table(table)
                .exactlyOnceAppend(prefix).batchSize(4).build();
    }

    private static void createReadings(String table) {
        server().execute("CREATE TABLE " + table + " (seq bigint NOT NULL, machine text NOT NULL, temperature double precision NOT NULL"
                + " CHECK (temperature < 1000))");
    }

    private static void write(CommittingSinkWriter<Row, PreparedTransaction> writer, long from, long to) throws Exception {
        for (long i = from; i < to; i++) {
            writer.write(Row.of(READING, i, "m" + i % 3, 20.0 + i % 500), i);
        }
    }

    @Test
    void rows_arePreparedAtTheBarrier_invisibleUntilTheCommit_andCommittingAgainChangesNothing() throws Exception {
        createReadings("plain");
        PostgresSink<Row> sink = sink("plain", "eo-plain");
        TestSinkContext ctx = TestSinkContext.of(0, Clock.system());
        sink.abortLingering(ctx, -1);
        Committer<PreparedTransaction> committer = sink.createCommitter(ctx);
        CommittingSinkWriter<Row, PreparedTransaction> writer = sink.createWriter(ctx);
        try {
            write(writer, 0, 10);
            writer.flush(false);
            assertThat(Tables.count(server(), "plain")).as("written into an open transaction").isZero();

            List<PreparedTransaction> first = writer.prepareCommit(1);
            assertThat(first).containsExactly(new PreparedTransaction("eo-plain-0-1"));
            assertThat(Tables.prepared(server())).containsExactly("eo-plain-0-1");
            assertThat(Tables.count(server(), "plain")).as("prepared, not committed").isZero();

            write(writer, 10, 15);
            committer.commit(first);
            assertThat(Tables.count(server(), "plain")).isEqualTo(10);
            assertThat(Tables.prepared(server())).isEmpty();
            committer.commit(first); // again, as after a crash before the next checkpoint
            assertThat(Tables.count(server(), "plain")).isEqualTo(10);

            committer.commit(writer.prepareCommit(2));
            assertThat(writer.prepareCommit(3)).as("nothing written since the last barrier").isEmpty();
            assertThat(Tables.rows(server(), "SELECT count(*), count(DISTINCT seq), min(seq), max(seq) FROM plain")).containsExactly("15|15|0|14");
        } finally {
            writer.close();
            committer.close();
        }
    }

    /** The first run prepares for checkpoints 1 and 2, has rows of a third transaction open, and dies. */
    private static void runThatDiesAfterTwoPrepares(PostgresSink<Row> sink, TestSinkContext ctx) throws Exception {
        sink.abortLingering(ctx, -1);
        CommittingSinkWriter<Row, PreparedTransaction> writer = sink.createWriter(ctx);
        write(writer, 0, 10);
        assertThat(writer.prepareCommit(1)).hasSize(1);
        write(writer, 10, 20);
        assertThat(writer.prepareCommit(2)).hasSize(1);
        write(writer, 20, 25);
        writer.close(); // the process is gone: its connection closes, the open transaction with it
    }

    @Test
    void crashBetweenPrepareAndCommit_restoreFromTheEarlierCheckpoint_commitsItsTransaction_andRollsBackTheLaterOne() throws Exception {
        createReadings("restored_early");
        PostgresSink<Row> sink = sink("restored_early", "eo-early");
        TestSinkContext ctx = TestSinkContext.of(0, Clock.system());
        runThatDiesAfterTwoPrepares(sink, ctx);
        assertThat(Tables.prepared(server())).containsExactly("eo-early-0-1", "eo-early-0-2");

        // restored from checkpoint 1, which holds the transaction prepared for it: the runtime's order
        PostgresSink<Row> again = sink("restored_early", "eo-early");
        again.abortLingering(ctx, 1);
        assertThat(Tables.prepared(server())).as("checkpoint 2 never completed: rolled back").containsExactly("eo-early-0-1");
        Committer<PreparedTransaction> committer = again.createCommitter(ctx);
        committer.commit(List.of(new PreparedTransaction("eo-early-0-1")));
        CommittingSinkWriter<Row, PreparedTransaction> writer = again.createWriter(ctx);
        write(writer, 10, 25); // the source replays from checkpoint 1
        committer.commit(writer.prepareCommit(2));
        writer.close();
        committer.close();

        assertThat(Tables.rows(server(), "SELECT count(*), count(DISTINCT seq), min(seq), max(seq) FROM restored_early")).containsExactly("25|25|0|24");
        assertThat(Tables.prepared(server())).isEmpty();
    }

    @Test
    void crashBetweenPrepareAndCommit_restoreFromTheLaterCheckpoint_commitsBothTransactions() throws Exception {
        createReadings("restored_late");
        PostgresSink<Row> sink = sink("restored_late", "eo-late");
        TestSinkContext ctx = TestSinkContext.of(0, Clock.system());
        runThatDiesAfterTwoPrepares(sink, ctx);

        PostgresSink<Row> again = sink("restored_late", "eo-late");
        again.abortLingering(ctx, 2);
        assertThat(Tables.prepared(server())).containsExactly("eo-late-0-1", "eo-late-0-2");
        Committer<PreparedTransaction> committer = again.createCommitter(ctx);
        committer.commit(List.of(new PreparedTransaction("eo-late-0-1"), new PreparedTransaction("eo-late-0-2")));
        committer.close();

        assertThat(Tables.rows(server(), "SELECT count(*), count(DISTINCT seq), min(seq), max(seq) FROM restored_late")).containsExactly("20|20|0|19");
        assertThat(Tables.prepared(server())).isEmpty();
    }

    @Test
    void freshStart_rollsBackEveryPreparedTransactionOfItsSubtask_andNoneOfAnotherSubtask() throws Exception {
        createReadings("fresh");
        PostgresSink<Row> sink = sink("fresh", "eo-fresh");
        TestSinkContext zero = TestSinkContext.of(0, Clock.system());
        TestSinkContext one = TestSinkContext.of(1, Clock.system());
        runThatDiesAfterTwoPrepares(sink, zero);
        runThatDiesAfterTwoPrepares(sink, one);

        assertThat(sink.rollBackAfter(Clock.system(), "test", 0, -1)).containsExactly("eo-fresh-0-1", "eo-fresh-0-2");
        assertThat(Tables.prepared(server())).containsExactly("eo-fresh-1-1", "eo-fresh-1-2");
        sink.abortLingering(one, -1);
        assertThat(Tables.prepared(server())).isEmpty();
        assertThat(Tables.count(server(), "fresh")).isZero();
    }

    @Test
    void aStartThatWouldWriteCommittedRowsAgain_isRefused_namingThePrefixAndTheCheckpoint() throws Exception {
        createReadings("again");
        PostgresSink<Row> sink = sink("again", "eo-again");
        TestSinkContext ctx = TestSinkContext.of(0, Clock.system());
        sink.abortLingering(ctx, -1);
        Committer<PreparedTransaction> committer = sink.createCommitter(ctx);
        CommittingSinkWriter<Row, PreparedTransaction> writer = sink.createWriter(ctx);
        write(writer, 0, 5);
        committer.commit(writer.prepareCommit(1));
        write(writer, 5, 10);
        committer.commit(writer.prepareCommit(2));
        writer.close();
        committer.close();
        assertThat(Tables.rows(server(), "SELECT subtask, checkpoint FROM millrace_sink_progress WHERE prefix = 'eo-again'"))
                .as("the newest committed checkpoint of the subtask").containsExactly("0|2");

        assertThatThrownBy(() -> sink("again", "eo-again").abortLingering(ctx, -1))
                .hasMessageContaining("subtask 0 of transaction prefix 'eo-again' already committed the rows of checkpoint 2, but the job starts afresh")
                .hasMessageContaining("DELETE FROM millrace_sink_progress WHERE prefix = 'eo-again'");
        assertThatThrownBy(() -> sink("again", "eo-again").abortLingering(ctx, 1))
                .hasMessageContaining("already committed the rows of checkpoint 2, after the restored checkpoint 1");
        sink("again", "eo-again").abortLingering(ctx, 2);  // the checkpoint that covers them: fine
        assertThat(Tables.count(server(), "again")).isEqualTo(10);
    }

    @Test
    void aPreparedTransactionRolledBackOutsideTheJob_failsItsCommit_sayingItsRowsAreLost() throws Exception {
        createReadings("lost");
        PostgresSink<Row> sink = sink("lost", "eo-lost");
        TestSinkContext ctx = TestSinkContext.of(0, Clock.system());
        sink.abortLingering(ctx, -1);
        CommittingSinkWriter<Row, PreparedTransaction> writer = sink.createWriter(ctx);
        write(writer, 0, 5);
        List<PreparedTransaction> prepared = writer.prepareCommit(1);
        writer.close();
        server().execute("ROLLBACK PREPARED 'eo-lost-0-1'");
        Committer<PreparedTransaction> committer = sink.createCommitter(ctx);
        try {
            assertThatThrownBy(() -> committer.commit(prepared))
                    .hasMessageContaining("prepared transaction eo-lost-0-1 of a complete checkpoint is neither prepared nor committed")
                    .hasMessageContaining("its rows are lost");
        } finally {
            committer.close();
        }
    }

    /** What a complete checkpoint holds of the sink and its source: the position and the committables not yet committed. */
    record Checkpoint(long id, long position, List<PreparedTransaction> pending) {}

    /**
     * The runtime's side of the protocol played by hand with random crashes: rows written, barriers whose checkpoint
     * completes or is abandoned, commits done or not before a crash, and every restart from the latest complete
     * checkpoint with checkpoint ids counted again from it (an abandoned checkpoint leaves no trace to continue from).
     */
    @Test
    void randomCrashesAmongWritesPreparesAndCommits_neverLoseOrRepeatARow() throws Exception {
        createReadings("random_crashes");
        Random random = new Random(20261204L);
        long total = 3_000;
        Checkpoint last = new Checkpoint(-1, 0, List.of());
        int crashes = 0;
        int crashesLeavingPrepared = 0;
        boolean finished = false;
        while (!finished) {
            PostgresSink<Row> sink = sink("random_crashes", "eo-random"); // a new process: a sink of its own
            TestSinkContext ctx = TestSinkContext.of(0, Clock.system());
            sink.abortLingering(ctx, last.id());
            Committer<PreparedTransaction> committer = sink.createCommitter(ctx);
            committer.commit(last.pending());
            CommittingSinkWriter<Row, PreparedTransaction> writer = sink.createWriter(ctx);
            List<PreparedTransaction> pending = new ArrayList<>();
            long position = last.position();
            long nextId = last.id() < 0 ? 1 : last.id() + 1;
            boolean crashed = false;
            while (!crashed && !finished) {
                int step = random.nextInt(10);
                if (position == total) {             // the final checkpoint of the bounded input
                    pending.addAll(writer.prepareCommit(nextId));
                    last = new Checkpoint(nextId, position, List.copyOf(pending));
                    committer.commit(pending);
                    finished = true;
                } else if (step < 6) {
                    long to = Math.min(total, position + 1 + random.nextInt(20));
                    write(writer, position, to);
                    position = to;
                } else if (step < 8) {               // a barrier
                    long id = nextId++;
                    pending.addAll(writer.prepareCommit(id));
                    if (random.nextBoolean()) {      // the checkpoint completes (else it is abandoned)
                        last = new Checkpoint(id, position, List.copyOf(pending));
                        if (random.nextInt(3) > 0) { // and its commit comes before any crash
                            committer.commit(pending);
                            pending.clear();
                        }
                    }
                } else if (random.nextInt(3) == 0) {
                    crashed = true;
                }
            }
            writer.close();
            committer.close();
            if (crashed) {
                crashes++;
                crashesLeavingPrepared += Tables.prepared(server()).isEmpty() ? 0 : 1;
            }
        }
        assertThat(crashes).isGreaterThanOrEqualTo(20);
        assertThat(crashesLeavingPrepared).as("crashes between a prepare and its commit").isGreaterThanOrEqualTo(5);
        assertThat(Tables.rows(server(), "SELECT count(*), count(DISTINCT seq), min(seq), max(seq) FROM random_crashes"))
                .containsExactly(total + "|" + total + "|0|" + (total - 1));
        assertThat(Tables.prepared(server())).isEmpty();
    }

    /** Every writer, committer and job closes its connections: no session is left once a test is over. */
    @AfterEach
    void noSessionIsLeft() {
        Await.until("no client session left on the server", Duration.ofSeconds(10), () -> Tables.rows(server(),
                "SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()").isEmpty());
    }

    @Test
    void whenTheConnectionIsCutMidTransaction_theWriterWritesItsRowsAgainIntoANewTransaction_andEveryRowIsThereOnce() throws Exception {
        createReadings("cut");
        PostgresSink<Row> sink = sink("cut", "eo-cut");
        TestSinkContext ctx = TestSinkContext.of(0, Clock.system());
        sink.abortLingering(ctx, -1);
        Committer<PreparedTransaction> committer = sink.createCommitter(ctx);
        CommittingSinkWriter<Row, PreparedTransaction> writer = sink.createWriter(ctx);
        try {
            write(writer, 0, 10);
            writer.flush(false);
            assertThat(terminateSessionsIdleInTransaction()).as("the writer's session, in its open transaction").isEqualTo(1);
            write(writer, 10, 14);                       // the next batch finds the connection gone
            assertThat(terminateSessionsIdleInTransaction()).isEqualTo(1);
            List<PreparedTransaction> prepared = writer.prepareCommit(1); // and so does the prepare
            committer.commit(prepared);
            assertThat(Tables.rows(server(), "SELECT count(*), count(DISTINCT seq), min(seq), max(seq) FROM cut")).containsExactly("14|14|0|13");
            assertThat(Tables.prepared(server())).isEmpty();
        } finally {
            writer.close();
            committer.close();
        }
    }

    /** Cuts the connections of every session with an open transaction that waits for its client; returns how many. */
    private static int terminateSessionsIdleInTransaction() {
        return Tables.rows(server(), "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity"
                + " WHERE state = 'idle in transaction' AND pid <> pg_backend_pid()").size();
    }

    @Test
    void boundedJob_withCheckpoints_writesEveryRowOnce_andLeavesNothingPrepared() throws Exception {
        createReadings("job_readings");
        PipelineConfig config = new PipelineConfig().parallelism(2);
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(50));
        Pipeline pipeline = Pipeline.create(config);
        // tag::exactly-once[]
        PostgresSink<Row> sink = PostgresSink.builder(Columns.of(READING))
                .url(server().url()).user("millrace")
                .table("job_readings")
                .exactlyOnceAppend("plant7-readings")   // names the prepared transactions: plant7-readings-<subtask>-<checkpoint>
                .build();
        pipeline.fromSource(GeneratorSource.builder(i -> Row.of(READING, i, "m" + i % 5, 20.0 + i % 50))
                        .count(20_000).ratePerSecond(40_000).build(), WatermarkStrategy.noWatermarks(), "readings")
                .sinkTo(sink).uid("readings-sink");
        // end::exactly-once[]
        pipeline.execute("exactly-once append");

        assertThat(Tables.rows(server(), "SELECT count(*), count(DISTINCT seq), min(seq), max(seq) FROM job_readings"))
                .containsExactly("20000|20000|0|19999");
        assertThat(Tables.prepared(server())).isEmpty();
    }

    @Test
    void boundedJob_withoutCheckpoints_commitsAtTheEndOfTheInput_andDeadLettersBadRowsInTheSameTransaction() throws Exception {
        createReadings("unchecked_readings");
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
        pipeline.fromSource(GeneratorSource.of(i -> Row.of(READING, i, "m" + i % 5, i % 100 == 0 ? 5000.0 : 20.0), 1_000),
                        WatermarkStrategy.noWatermarks(), "readings")
                .sinkTo(PostgresSink.builder(Columns.of(READING)).url(server().url()).user("millrace").table("unchecked_readings")
                        .exactlyOnceAppend("eo-unchecked").batchSize(64).onBadRow(BadRowPolicy.deadLetter("unchecked_rejected")).build());
        pipeline.execute("append without checkpoints");

        assertThat(Tables.rows(server(), "SELECT count(*), count(DISTINCT seq) FROM unchecked_readings")).containsExactly("990|990");
        assertThat(Tables.rows(server(), "SELECT count(*), min(sql_state), max(sql_state) FROM unchecked_rejected")).containsExactly("10|23514|23514");
        assertThat(Tables.rows(server(), "SELECT row_text FROM unchecked_rejected ORDER BY row_text LIMIT 1")).containsExactly("+I[0, m0, 5000.0]");
        assertThat(Tables.prepared(server())).isEmpty();
    }

    @Test
    void aChangelogRow_givenToTheAppendSink_failsNamingTheRowAndTheUpsertOption() {
        createReadings("append_only");
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
        pipeline.fromCollection(List.of(Row.ofKind(RowKind.DELETE, READING, 1L, "m1", 20.0)))
                .sinkTo(sink("append_only", "eo-append-only"));
        assertThatThrownBy(() -> pipeline.execute("changelog into append"))
                .hasStackTraceContaining("takes inserts (+I) only, but got a DELETE row: -D[1, m1, 20.0]")
                .hasStackTraceContaining("option 'upsert'");
        assertThat(Tables.prepared(server())).isEmpty();
    }
}
