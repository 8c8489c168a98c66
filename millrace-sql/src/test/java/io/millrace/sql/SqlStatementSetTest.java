package io.millrace.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.PipelineConfig;
import io.millrace.api.metrics.OperatorMetrics;
import io.millrace.api.row.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several INSERT statements as one job: both sinks in one plan, and a table they both read is read once. */
class SqlStatementSetTest {
    @TempDir
    Path dir;

    private SqlSession session() throws IOException {
        Files.write(dir.resolve("readings.jsonl"), List.of("{\"machine\":\"m1\",\"temp\":70.5}", "{\"machine\":\"m2\",\"temp\":90.0}",
                "{\"machine\":\"m1\",\"temp\":88.0}", "{\"machine\":\"m3\",\"temp\":60.0}"));
        SqlSession sql = SqlSession.create(PipelineConfig.defaults().parallelism(2));
        sql.executeScript("""
                CREATE TABLE readings (machine STRING, temp DOUBLE) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'json');
                CREATE TABLE hot (machine STRING, temp DOUBLE) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'json');
                CREATE TABLE machines (machine STRING) WITH ('connector' = 'blackhole');
                """.formatted(dir.resolve("readings.jsonl"), dir.resolve("hot")));
        return sql;
    }

    @Test
    void explainOfAStatementSet_showsBothSinks_andTheSharedScanOnce() throws IOException {
        SqlSession sql = session();
        String plan = sql.query("""
                EXPLAIN STATEMENT SET BEGIN
                INSERT INTO hot SELECT machine, temp FROM readings WHERE temp >= 85;
                INSERT INTO machines SELECT machine FROM readings;
                END
                """).get(0).getString(0);
        String physical = plan.substring(plan.indexOf("== Physical Plan =="));
        assertThat(plan).contains("LogicalSink(table=[hot])", "LogicalSink(table=[machines])");
        assertThat(physical).contains("Sink(table=[hot], changelogMode=[I])", "Sink(table=[machines], changelogMode=[I])",
                "Reused(reference_id=[1])");
        assertThat(physical.split("TableSourceScan\\(table=\\[readings\\]", -1)).hasSize(2);
        assertThat(physical).containsPattern("TableSourceScan\\(table=\\[readings\\].*reuse_id=\\[1\\]");
    }

    @Test
    void statementSet_readsTheSharedTableOnce_andWritesBothSinks() throws IOException {
        SqlSession sql = session();
        List<StatementResult> results = sql.executeScript("""
                EXECUTE STATEMENT SET BEGIN
                  INSERT INTO hot SELECT machine, temp FROM readings WHERE temp >= 85;
                  INSERT INTO machines SELECT machine FROM readings;
                END;
                """);
        StatementResult set = results.get(0);
        assertThat(set.message()).isEqualTo("Inserted into 'hot', 'machines'");
        assertThat(set.job().metrics().sum("readings", OperatorMetrics::recordsOut)).isEqualTo(4);
        List<Row> hot = sql.query("SELECT machine, temp FROM hot");
        assertThat(hot).extracting(Row::toString).containsExactlyInAnyOrder("+I[m2, 90.0]", "+I[m1, 88.0]");
    }

    @Test
    void beginStatementSet_collectsInsertsOneCallAtATime_untilEnd() throws IOException {
        SqlSession sql = session();
        assertThat(sql.execute("BEGIN STATEMENT SET;").message()).startsWith("Statement set begun");
        assertThat(sql.inStatementSet()).isTrue();
        assertThat(sql.execute("INSERT INTO hot SELECT machine, temp FROM readings WHERE temp >= 85;").message())
                .isEqualTo("Added INSERT INTO 'hot' to the statement set (1 statement)");
        assertThat(sql.execute("INSERT INTO machines SELECT machine FROM readings;").message()).endsWith("(2 statements)");
        assertThat(Files.exists(dir.resolve("hot"))).isFalse();
        StatementResult end = sql.execute("END;");
        assertThat(sql.inStatementSet()).isFalse();
        assertThat(end.job().metrics().sum("readings", OperatorMetrics::recordsOut)).isEqualTo(4);
        assertThat(sql.query("SELECT machine FROM hot")).hasSize(2);
    }
}
