package io.millrace.connector.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.CommittingSinkWriter;
import io.millrace.api.time.ManualClock;
import io.millrace.connector.jdbc.server.PostgresServer;
import io.millrace.connector.jdbc.server.PostgresTestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The upsert sink against a real server: a random changelog, batching, Java objects, and the bad-row policy. */
class PostgresUpsertSinkIT {
    @RegisterExtension
    static final PostgresServer PG = new PostgresServer();

    // tag::row-type[]
    static final RowType MACHINE = RowType.builder()
            .field("machine", FieldType.STRING)
            .field("recipe", FieldType.STRING)
            .field("speed", FieldType.INT)
            .nullableField("limit", FieldType.DOUBLE)
            .field("updated", FieldType.TIMESTAMP)
            .build();
    // end::row-type[]

    @TempDir
    Path dir;

    static PostgresTestServer server() {
        return PG.server();
    }

    @Test
    void randomChangelog_writtenByTwoSubtasks_leavesTheLatestRowPerKey_andNoDeletedKey() throws Exception {
        server().execute("""
                CREATE TABLE machines (machine text PRIMARY KEY, recipe varchar(16) NOT NULL, speed integer NOT NULL,
                                       "limit" double precision, updated timestamptz NOT NULL)""");
        Random random = new Random(20261204L);
        List<Row> changelog = new ArrayList<>();
        Map<String, Row> model = new HashMap<>();
        int deletes = 0;
        for (int i = 0; i < 4_000; i++) {
            String machine = "m" + random.nextInt(80);
            Row current = model.get(machine);
            if (current != null && random.nextInt(5) == 0) {
                changelog.add(current.withKind(RowKind.DELETE));
                model.remove(machine);
                deletes++;
                continue;
            }
            Row next = Row.of(MACHINE, machine, "recipe-" + random.nextInt(7), random.nextInt(3_000),
                    random.nextBoolean() ? null : random.nextInt(10_000) / 10.0, 1_700_000_000_000L + i * 1_000L);
            if (current == null) {
                changelog.add(next);
            } else {
                changelog.add(current.withKind(RowKind.UPDATE_BEFORE));
                changelog.add(next.withKind(RowKind.UPDATE_AFTER));
            }
            model.put(machine, next);
        }
        assertThat(deletes).isGreaterThan(100);

        PipelineConfig config = new PipelineConfig().parallelism(2);
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(100));
        Pipeline pipeline = Pipeline.create(config);
        // tag::upsert[]
        PostgresSink<Row> sink = PostgresSink.builder(Columns.of(MACHINE))
                .url(server().url()).user("millrace").password("")
                .table("machines")
                .upsert("machine")                  // the primary key: ON CONFLICT (machine) DO UPDATE
                .batchSize(500)
                .build();
        pipeline.fromCollection(changelog)
                .keyBy(r -> r.getString(0))         // one subtask per key: its changes stay in order
                .sinkTo(sink).uid("machines");
        // end::upsert[]
        pipeline.execute("upserts");

        Map<String, String> expected = new TreeMap<>();
        for (Row r : model.values()) {
            expected.put(r.getString(0), expectedLine(r));
        }
        Map<String, String> actual = new TreeMap<>();
        for (String line : Tables.rows(server(), "SELECT machine, recipe, speed, \"limit\", (extract(epoch from updated) * 1000)::bigint"
                + " FROM machines")) {
            actual.put(line.substring(0, line.indexOf('|')), line);
        }
        assertThat(actual).isEqualTo(expected);
    }

    private static String expectedLine(Row r) {
        // the server prints a double without a trailing ".0"
        String limit = r.isNullAt(3) ? null : java.math.BigDecimal.valueOf(r.getDouble(3)).stripTrailingZeros().toPlainString();
        return r.getString(0) + "|" + r.getString(1) + "|" + r.getInt(2) + "|" + limit + "|" + r.getTimestamp(4);
    }

    @Test
    void writer_holdsABatchUntilItIsFull_orOldEnough_keepsOneChangePerKey_andTheBarrierWritesTheRest() throws Exception {
        server().execute("CREATE TABLE batched (machine text PRIMARY KEY, recipe text NOT NULL, speed integer NOT NULL,"
                + " \"limit\" double precision, updated timestamptz NOT NULL)");
        ManualClock clock = new ManualClock(0);
        PostgresSink<Row> sink = PostgresSink.builder(Columns.of(MACHINE)).url(server().url()).user("millrace")
                .table("batched").upsert("machine").batchSize(10).batchInterval(Duration.ofSeconds(1)).build();
        CommittingSinkWriter<Row, PreparedTransaction> writer = sink.createWriter(TestSinkContext.of(0, clock));
        try {
            for (int i = 0; i < 9; i++) {
                writer.write(machine("m" + i, i), 0);
            }
            writer.write(machine("m0", 100), 0); // the same key again: still nine keys buffered
            writer.flush(false);                 // younger than the interval
            assertThat(Tables.count(server(), "batched")).as("nothing written before the batch is full").isZero();

            writer.write(machine("m9", 9), 0);   // the tenth key fills the batch
            assertThat(Tables.rows(server(), "SELECT machine, speed FROM batched ORDER BY machine"))
                    .containsExactly("m0|100", "m1|1", "m2|2", "m3|3", "m4|4", "m5|5", "m6|6", "m7|7", "m8|8", "m9|9");

            writer.write(machine("m10", 10), 0);
            writer.flush(false);
            assertThat(Tables.count(server(), "batched")).isEqualTo(10);
            clock.advance(Duration.ofSeconds(1));
            writer.flush(false);                 // now the buffer is as old as the interval
            assertThat(Tables.count(server(), "batched")).isEqualTo(11);

            writer.write(machine("m3", 3).withKind(RowKind.DELETE), 0);
            writer.write(machine("m4", 4).withKind(RowKind.UPDATE_BEFORE), 0);
            writer.write(machine("m4", 44).withKind(RowKind.UPDATE_AFTER), 0);
            assertThat(writer.prepareCommit(1)).as("the upsert sink prepares no transactions").isEmpty();
            assertThat(Tables.rows(server(), "SELECT machine, speed FROM batched WHERE machine IN ('m3', 'm4')")).containsExactly("m4|44");
            assertThat(Tables.count(server(), "batched")).isEqualTo(10);
        } finally {
            writer.close();
        }
    }

    private static Row machine(String name, int speed) {
        return Row.of(MACHINE, name, "r", speed, null, 1_700_000_000_000L);
    }

    @Test
    void whenTheConnectionIsCut_theWriterWritesTheBatchAgainOnANewConnection() throws Exception {
        server().execute("CREATE TABLE reconnected (machine text PRIMARY KEY, recipe text NOT NULL, speed integer NOT NULL,"
                + " \"limit\" double precision, updated timestamptz NOT NULL)");
        PostgresSink<Row> sink = PostgresSink.builder(Columns.of(MACHINE)).url(server().url()).user("millrace")
                .table("reconnected").upsert("machine").batchSize(5).property("ApplicationName", "cut-upsert").build();
        CommittingSinkWriter<Row, PreparedTransaction> writer = sink.createWriter(TestSinkContext.of(0, io.millrace.api.time.Clock.system()));
        try {
            for (int i = 0; i < 5; i++) {
                writer.write(machine("m" + i, i), 0);
            }
            assertThat(Tables.count(server(), "reconnected")).isEqualTo(5);
            assertThat(Tables.rows(server(), "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity"
                    + " WHERE application_name = 'cut-upsert'")).as("the writer's session").containsExactly("t");
            for (int i = 5; i < 10; i++) {
                writer.write(machine("m" + i, i), 0);
            }
            assertThat(Tables.count(server(), "reconnected")).isEqualTo(10);
        } finally {
            writer.close();
        }
    }

    // tag::java-objects[]
    /** A Java object written by a column mapping instead of a row type. */
    record Setpoint(String machine, String parameter, double value, Instant since) implements java.io.Serializable {}

    static final Columns<Setpoint> SETPOINT = Columns.<Setpoint>builder()
            .column("machine", Setpoint::machine)
            .column("parameter", Setpoint::parameter)
            .column("value", Setpoint::value)
            .column("since", Setpoint::since)       // an Instant goes to a timestamptz column
            .kind(s -> Double.isNaN(s.value()) ? RowKind.DELETE : RowKind.INSERT)
            .build();
    // end::java-objects[]

    @Test
    void javaObjects_upsertedByACompositeKey_andDeletedByTheirKind() throws Exception {
        server().execute("CREATE TABLE setpoints (machine text, parameter text, value double precision NOT NULL, since timestamptz NOT NULL,"
                + " PRIMARY KEY (machine, parameter))");
        Instant t = Instant.parse("2026-12-04T08:00:00Z");
        List<Setpoint> input = List.of(
                new Setpoint("m1", "speed", 100, t),
                new Setpoint("m1", "temperature", 80, t),
                new Setpoint("m2", "speed", 90, t),
                new Setpoint("m1", "speed", 120, t.plusSeconds(60)),
                new Setpoint("m2", "speed", Double.NaN, t.plusSeconds(90)));
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
        pipeline.fromCollection(input).sinkTo(PostgresSink.builder(SETPOINT).url(server().url()).user("millrace")
                .table("setpoints").upsert("machine", "parameter").build());
        pipeline.execute("setpoints");

        assertThat(Tables.rows(server(), "SELECT machine, parameter, value, extract(epoch from since)::bigint FROM setpoints ORDER BY 1, 2"))
                .containsExactly("m1|speed|120|" + t.plusSeconds(60).getEpochSecond(), "m1|temperature|80|" + t.getEpochSecond());
    }

    static final RowType LOOSE = RowType.builder()
            .field("machine", FieldType.STRING)
            .nullableField("recipe", FieldType.STRING)
            .field("speed", FieldType.STRING)
            .build();

    @Test
    void badRow_withTheDefaultPolicy_failsTheJobNamingTheRowTheTableAndTheServersMessage() {
        server().execute("CREATE TABLE strict (machine text PRIMARY KEY, recipe varchar(8) NOT NULL, speed integer NOT NULL)");
        List<Row> input = List.of(Row.of(LOOSE, "m1", "short", "10"), Row.of(LOOSE, "m2", "much-too-long-a-recipe", "20"));
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
        pipeline.fromCollection(input).sinkTo(PostgresSink.builder(Columns.of(LOOSE)).url(server().url()).user("millrace")
                .table("strict").upsert("machine").build()).name("strict-sink");

        assertThatThrownBy(() -> pipeline.execute("bad rows fail"))
                .hasStackTraceContaining("table strict refused row +I[m2, much-too-long-a-recipe, 20]")
                .hasStackTraceContaining("value too long for type character varying(8)")
                .hasStackTraceContaining("SQLSTATE 22001");
    }

    @Test
    void badRows_withADeadLetterTable_goThereWithTheServersReason_andTheGoodRowsAreWritten() throws Exception {
        server().execute("CREATE TABLE checked (machine text PRIMARY KEY, recipe varchar(8) NOT NULL, speed integer NOT NULL CHECK (speed >= 0))");
        List<Row> input = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            input.add(Row.of(LOOSE, "good-" + i, "r" + i, Integer.toString(i)));
        }
        input.add(10, Row.of(LOOSE, "too-long", "much-too-long-a-recipe", "1"));
        input.add(20, Row.of(LOOSE, "no-recipe", null, "2"));
        input.add(30, Row.of(LOOSE, "not-a-number", "r", "fast"));
        input.add(40, Row.of(LOOSE, "negative", "r", "-5"));
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
        // tag::dead-letter[]
        pipeline.fromCollection(input).sinkTo(PostgresSink.builder(Columns.of(LOOSE))
                .url(server().url()).user("millrace")
                .table("checked").upsert("machine")
                .onBadRow(BadRowPolicy.deadLetter("checked_rejected"))  // created when missing
                .build()).name("checked-sink");
        // end::dead-letter[]
        pipeline.execute("bad rows to a dead-letter table");

        assertThat(Tables.count(server(), "checked")).isEqualTo(50);
        assertThat(Tables.rows(server(), "SELECT sink, target_table, row_text, sql_state FROM checked_rejected ORDER BY sql_state"))
                .containsExactly(
                        "checked-sink|checked|+I[too-long, much-too-long-a-recipe, 1]|22001",
                        "checked-sink|checked|+I[not-a-number, r, fast]|22P02",
                        "checked-sink|checked|+I[no-recipe, null, 2]|23502",
                        "checked-sink|checked|+I[negative, r, -5]|23514");
        assertThat(Tables.rows(server(), "SELECT reason FROM checked_rejected WHERE sql_state = '22P02'").get(0))
                .contains("invalid input syntax for type integer: \"fast\"");
    }

    @Test
    void aMissingTable_failsAtOnceNamingTheTableAndTheServersMessage_insteadOfRetrying() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
        pipeline.fromCollection(List.of(machine("m1", 1))).sinkTo(PostgresSink.builder(Columns.of(MACHINE)).url(server().url())
                .user("millrace").table("no_such_table").upsert("machine").build());
        long started = System.nanoTime();
        assertThatThrownBy(() -> pipeline.execute("missing table"))
                .hasStackTraceContaining("writing to table no_such_table failed")
                .hasStackTraceContaining("relation \"no_such_table\" does not exist");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("no retries: the default retry timeout is a minute").isLessThan(Duration.ofSeconds(30));
    }
}
