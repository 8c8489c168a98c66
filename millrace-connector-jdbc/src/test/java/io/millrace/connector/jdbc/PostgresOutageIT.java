package io.millrace.connector.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.RestartStrategy;
import io.millrace.connector.jdbc.server.PostgresServer;
import io.millrace.connector.jdbc.server.PostgresTestServer;
import io.millrace.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server stopped (fast shutdown: every connection is cut, open transactions are aborted) and started again while
 * {@link PostgresCrashLoopJob} writes both sinks: the sinks wait with backoff, or fail their task for the restart
 * strategy once their retry timeout has passed; either way the tables are exact at the end and nothing is left
 * prepared.
 */
class PostgresOutageIT {
    @RegisterExtension
    static final PostgresServer PG = new PostgresServer();

    static final long EVENTS = 16_000;

    @TempDir
    Path dir;

    @BeforeEach
    void createTables() {
        PG.server().execute("DROP TABLE IF EXISTS events, counts, millrace_sink_progress", PostgresCrashLoopJob.CREATE_TABLES);
    }

    @AfterEach
    void serverUp() {
        PG.server().start();
    }

    @Test
    void whenTheServerIsDownForSeconds_theSinksWaitForIt_andNothingIsLostOrDoubled() throws Exception {
        PostgresTestServer server = PG.server();
        JobHandle job = PostgresCrashLoopJob.pipeline(server.url(), dir, EVENTS, 4_000, RestartStrategy.none(), Duration.ofSeconds(60))
                .executeAsync("outage within the retry timeout");
        bounce(server, job, Duration.ofSeconds(3));
        JobResult result = job.await(Duration.ofSeconds(90));
        assertThat(result).as("the job finishes").isNotNull();
        assertThat(result.metrics().restarts()).as("no restart: the sinks waited for the server").isZero();
        PostgresCrashLoopIT.assertExact(server, EVENTS);
    }

    @Test
    void whenTheServerIsDownLongerThanTheRetryTimeout_theTasksFail_theJobRestartsFromItsCheckpoint_andNothingIsLostOrDoubled() throws Exception {
        PostgresTestServer server = PG.server();
        JobHandle job = PostgresCrashLoopJob.pipeline(server.url(), dir, EVENTS, 4_000, RestartStrategy.fixedDelay(50, Duration.ofMillis(300)),
                Duration.ofMillis(800)).executeAsync("outage beyond the retry timeout");
        bounce(server, job, Duration.ofSeconds(4));
        JobResult result = job.await(Duration.ofSeconds(90));
        assertThat(result).as("the job finishes").isNotNull();
        assertThat(result.metrics().restarts()).as("restarts after the sinks gave up waiting").isPositive();
        PostgresCrashLoopIT.assertExact(server, EVENTS);
    }

    @Test
    void whenTheServerStaysDown_aWriteGivesUpAfterTheRetryTimeout_namingItAndTheLastError() throws Exception {
        PostgresTestServer server = PG.server();
        PostgresSink<io.millrace.api.row.Row> sink = PostgresSink.builder(Columns.of(PostgresCrashLoopJob.COUNT)).url(server.url())
                .user("millrace").table("counts").upsert("id").batchSize(1)
                .retryBackoff(Duration.ofMillis(50), Duration.ofMillis(200)).retryTimeout(Duration.ofMillis(700)).build();
        var writer = sink.createWriter(TestSinkContext.of(0, io.millrace.api.time.Clock.system()));
        try {
            server.stop();
            long started = System.nanoTime();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> writer.write(io.millrace.api.row.Row.of(PostgresCrashLoopJob.COUNT, 1L, 1, 1L), 0))
                    .isInstanceOf(java.sql.SQLException.class)
                    .hasMessageContaining("PostgreSQL sink 'test-sink' (table counts) writing 1 rows: the database did not answer within"
                            + " retryTimeout=PT0.7S")
                    .hasMessageContaining("SQLSTATE 08");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(Duration.ofMillis(500), Duration.ofSeconds(15));
        } finally {
            writer.close();
            server.start();
        }
        assertThat(Tables.count(server, "counts")).isZero();
    }

    /** Once both sinks have committed something, stops the server for {@code down} (or until the job ends), then starts it. */
    private static void bounce(PostgresTestServer server, JobHandle job, Duration down) throws InterruptedException {
        Await.until("rows of both sinks committed before the outage", Duration.ofSeconds(60),
                () -> job.isDone() || Tables.count(server, "events") > 0 && Tables.count(server, "counts") > 0);
        assertThat(job.isDone()).as("the job still runs when the server goes down").isFalse();
        assertThat(Tables.count(server, "events")).as("the outage falls mid-stream").isLessThan(EVENTS);
        server.stop();
        try {
            assertThat(job.await(down)).as("the job waits for the server instead of finishing or failing").isNull();
        } finally {
            server.start();
        }
    }
}
