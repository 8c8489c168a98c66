package io.millrace.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.DataStream;
import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** INSERT jobs over the connectors, checkpoints and restore, EXPLAIN and DESCRIBE, and mixing SQL with DataStreams. */
class SqlJobTest {
    @TempDir
    Path dir;

    private static List<String> readLines(Path out) throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(out)) {
            for (Path f : files.filter(p -> !p.getFileName().toString().startsWith(".")).sorted().toList()) {
                lines.addAll(Files.readAllLines(f));
            }
        }
        lines.sort(null);
        return lines;
    }

    private static String ddl(Path out, long rate) {
        return "CREATE TABLE gen (id BIGINT, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts) WITH ("
                + "'connector' = 'datagen', 'rows-per-second' = '" + rate + "', 'number-of-rows' = '3000', 'fields.id.kind' = 'sequence', "
                + "'fields.id.start' = '0', 'fields.id.end' = '2999');\n"
                + "CREATE TABLE out (w TIMESTAMP(3), c BIGINT, s BIGINT) WITH ('connector' = 'filesystem', 'path' = '" + out + "', 'format' = 'json');\n";
    }

    private static final String INSERT = "INSERT INTO out SELECT window_start, COUNT(*), SUM(id) "
            + "FROM TABLE(TUMBLE(TABLE gen, DESCRIPTOR(ts), INTERVAL '0.1' SECOND)) GROUP BY window_start, window_end";

    /** The 30 windows of 100 rows of the sequence 0..2999 at 1 ms per row. */
    private static List<String> expectedWindows() {
        List<String> lines = new ArrayList<>();
        long start = java.time.Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
        for (int w = 0; w < 30; w++) {
            long sum = 0;
            for (long i = w * 100L; i < w * 100L + 100; i++) {
                sum += i;
            }
            lines.add("{\"w\":" + (start + w * 100L) + ",\"c\":100,\"s\":" + sum + "}");
        }
        lines.sort(null);
        return lines;
    }

    @Test
    void insertIntoFilesystem_fromDatagen_writesEveryWindowOnce() throws IOException {
        Path out = dir.resolve("out");
        SqlSession sql = SqlSession.create(PipelineConfig.defaults().parallelism(2));
        sql.executeScript(ddl(out, 1000) + INSERT + ";");
        assertThat(readLines(out)).containsExactlyElementsOf(expectedWindows());
    }

    @Test
    void insertJob_cancelledAfterACheckpoint_resumesFromItAndWritesEveryWindowOnce() throws Exception {
        Path out = dir.resolve("out");
        Path checkpoints = dir.resolve("checkpoints");
        SqlSession sql = SqlSession.create(PipelineConfig.defaults().parallelism(2));
        sql.executeScript(ddl(out, 1000) + "SET 'execution.checkpointing.dir' = '" + checkpoints + "';\n"
                + "SET 'execution.checkpointing.interval' = '1h';");
        JobHandle first = sql.submit(INSERT);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (first.metrics().sum("Sink(out)", m -> m.recordsIn()) < 3 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        long checkpoint = first.triggerCheckpoint().get();
        assertThat(checkpoint).isPositive();
        first.cancel();
        first.await();
        assertThat(readLines(out)).hasSizeLessThan(30);

        sql.execute("SET 'execution.checkpointing.interval' = '100ms'");
        io.millrace.api.JobResult second = sql.execute(INSERT).job();
        assertThat(readLines(out)).containsExactlyElementsOf(expectedWindows());
        // the second run resumed where the checkpoint was taken: it generated fewer than all rows
        assertThat(second.metrics().sum("gen", m -> m.recordsOut())).isPositive().isLessThan(3000);
    }

    @Test
    void explain_showsEveryPhysicalNodeWithItsChangelogMode() {
        SqlSession sql = SqlSession.create(PipelineConfig.defaults().parallelism(1));
        sql.executeScript(ddl(dir.resolve("out"), 1000));
        String plan = sql.execute("EXPLAIN " + INSERT).rows().get(0).getString(0);
        assertThat(plan).contains("== Abstract Syntax Tree ==", "== Physical Plan ==",
                "Sink(table=[out], changelogMode=[I])",
                "WindowAggregate(window=[TUMBLE(ts, size=PT0.1S)], groupBy=[], select=[COUNT(), SUM($2)], changelogMode=[I])",
                "TableSourceScan(table=[gen], connector=[datagen, rows-per-second=1000.0, number-of-rows=3000], watermark=[ts, ts], changelogMode=[I])");
    }

    @Test
    void describeAndShowTables_listColumnsTypesKeysAndWatermark() {
        SqlSession sql = SqlSession.create(PipelineConfig.defaults().parallelism(1));
        sql.executeScript("CREATE TABLE t (id BIGINT NOT NULL, name STRING, ts TIMESTAMP(3), doubled AS id * 2, "
                + "WATERMARK FOR ts AS ts - INTERVAL '1' SECOND, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'blackhole');"
                + "CREATE VIEW v AS SELECT id FROM t;");
        assertThat(sql.execute("SHOW TABLES").rowsText()).isEqualTo("+I[t]\n+I[v]\n");
        assertThat(sql.execute("DESCRIBE t").rowsText()).isEqualTo(
                "+I[id, BIGINT, false, PRI(id), null, null]\n"
                        + "+I[name, STRING, true, null, null, null]\n"
                        + "+I[ts, TIMESTAMP(3) *ROWTIME*, true, null, null, ts - INTERVAL '1' SECOND]\n"
                        + "+I[doubled, BIGINT, false, null, AS id * 2, null]\n");
        assertThatThrownBy(() -> sql.execute("DROP TABLE v")).hasMessageContaining("'v' is a view: use DROP VIEW");
        sql.execute("DROP VIEW v");
        assertThat(sql.execute("SHOW TABLES").rowsText()).isEqualTo("+I[t]\n");
    }

    @Test
    void set_acceptsMillraceAndFlinkKeys_andAppliesThemToJobs() {
        SqlSession sql = SqlSession.create(PipelineConfig.defaults().parallelism(1));
        sql.execute("SET 'parallelism.default' = '3'");
        sql.execute("SET 'checkpoint.interval' = '5s'");
        assertThat(sql.pipelineConfig().parallelism()).isEqualTo(3);
        assertThat(sql.pipelineConfig().checkpoints().interval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(sql.execute("SET").rowsText()).isEqualTo("+I[checkpoint.interval, 5s]\n+I[parallelism.default, 3]\n");
        sql.execute("RESET 'parallelism.default'");
        assertThat(sql.pipelineConfig().parallelism()).isEqualTo(1);
        assertThatThrownBy(() -> sql.execute("SET 'parallelism' = 'many'")).isInstanceOf(SqlException.class).hasMessageContaining("parallelism");
    }

    @Test
    void fromDataStreamAndToDataStream_mixSqlWithTheJavaApi() {
        RowType type = RowType.builder().field("machine", FieldType.STRING).field("temp", FieldType.DOUBLE).field("ts", FieldType.TIMESTAMP).build();
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            rows.add(Row.of(type, "m" + (i % 2), (double) i, 1_000L * i));
        }
        Pipeline p = Pipeline.create(PipelineConfig.defaults().parallelism(2));
        DataStream<Row> in = p.fromCollection(rows)
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Row>monotonous().withTimestampAssigner((r, t) -> r.getTimestamp(2)));
        SqlSession sql = SqlSession.create();
        sql.fromDataStream("readings", in, type, "ts");
        DataStream<Row> out = sql.toDataStream(p, "SELECT machine, COUNT(*) AS c, MAX(temp) AS hottest "
                + "FROM TABLE(TUMBLE(TABLE readings, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, machine");
        CollectSink<String> sink = new CollectSink<>();
        out.map(Row::toString).sinkTo(sink);
        p.execute("mixed");
        List<String> results = new ArrayList<>(sink.results());
        results.sort(null);
        assertThat(results).containsExactly("+I[m0, 5, 18.0]", "+I[m0, 5, 8.0]", "+I[m1, 5, 19.0]", "+I[m1, 5, 9.0]");
    }

    @Test
    void factorySimulatorAndPrint_runAsTables() {
        SqlSession sql = SqlSession.create(PipelineConfig.defaults().parallelism(2));
        sql.executeScript("CREATE TABLE factory (machine_id STRING, sensor STRING, `value` DOUBLE, event_time TIMESTAMP_LTZ(3), "
                + "WATERMARK FOR event_time AS event_time - INTERVAL '2' SECOND) "
                + "WITH ('connector' = 'factory-simulator', 'machines' = '3', 'max-events' = '3000', 'speedup' = 'unlimited', 'seed' = '7')");
        List<Row> counts = sql.query("SELECT machine_id, COUNT(*) FROM TABLE(TUMBLE(TABLE factory, DESCRIPTOR(event_time), INTERVAL '1' HOUR)) "
                + "WHERE sensor = 'temperature' GROUP BY window_start, window_end, machine_id");
        assertThat(counts).extracting(r -> r.getString(0)).containsExactlyInAnyOrder("M001", "M002", "M003");
        assertThat(counts).allSatisfy(r -> assertThat(r.getLong(1)).isPositive());
        assertThatThrownBy(() -> sql.execute("CREATE TABLE f2 (machine STRING) WITH ('connector' = 'factory-simulator')"))
                .hasMessageContaining("has no column 'machine'; its columns are event_type, machine_id, sensor, value, state, event_time, seq");
    }
}
