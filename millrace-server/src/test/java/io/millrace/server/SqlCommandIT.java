package io.millrace.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code millrace sql -f FILE} and {@code -e STATEMENTS}: statements run one after the other; errors name line and column. */
class SqlCommandIT {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int sql(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "sql";
        System.arraycopy(args, 0, all, 1, args.length);
        return Main.run(new PrintWriter(out, true), new PrintWriter(err, true), all);
    }

    @Test
    void file_withABoundedSource_writesTheFilesystemTable_andExitsZero() throws IOException {
        Files.write(dir.resolve("readings.jsonl"), List.of(
                "{\"machine\":\"m1\",\"temp\":70.5,\"ts\":1767225600000}",
                "{\"machine\":\"m2\",\"temp\":91.0,\"ts\":1767225601000}",
                "{\"machine\":\"m1\",\"temp\":88.5,\"ts\":1767225602000}",
                "{\"machine\":\"m3\",\"temp\":84.9,\"ts\":1767225603000}"));
        Path job = dir.resolve("hot.sql");
        Files.writeString(job, """
                -- readings of 85 degrees and more, into a directory of JSON lines
                CREATE TABLE readings (machine STRING, temp DOUBLE, ts TIMESTAMP_LTZ(3))
                WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'json');

                CREATE TABLE hot (machine STRING, temp DOUBLE)
                WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'json');

                INSERT INTO hot SELECT machine, temp FROM readings WHERE temp >= 85;
                """.formatted(dir.resolve("readings.jsonl"), dir.resolve("hot")));

        assertThat(sql("-f", job.toString(), "--parallelism", "2", "--checkpoint-dir", dir.resolve("cp").toString()))
                .as("stderr: %s", err).isZero();

        assertThat(lines(dir.resolve("hot"))).containsExactlyInAnyOrder("{\"machine\":\"m2\",\"temp\":91.0}", "{\"machine\":\"m1\",\"temp\":88.5}");
        assertThat(out.toString()).contains("Table 'readings' created", "Table 'hot' created", "Job 'insert-into-hot' started",
                "Job 'insert-into-hot' finished after");
    }

    @Test
    void file_withAnError_printsLineColumnAndCaret_andExitsOne() throws IOException {
        Path job = dir.resolve("broken.sql");
        Files.writeString(job, """
                CREATE TABLE numbers (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');

                SELECT n, nosuch FROM numbers;
                """);
        assertThat(sql("-f", job.toString())).isEqualTo(1);
        assertThat(err.toString()).contains(job + ": line 3, column 11: Column 'nosuch' not found in any table",
                "SELECT n, nosuch FROM numbers;\n          ^");
        assertThat(out.toString()).contains("Table 'numbers' created");
    }

    @Test
    void execute_runsTheStatementsGiven_andPrintsTheQueryAsAChangelog() {
        assertThat(sql("-e", """
                CREATE TABLE numbers (n BIGINT) WITH ('connector' = 'datagen', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1',
                  'fields.n.end' = '3');
                SELECT n * 10 AS tens FROM numbers;
                SHOW TABLES;""", "--parallelism", "1")).as("stderr: %s", err).isZero();
        String printed = out.toString();
        assertThat(printed).contains("| op | tens       |", "| +I | 10         |", "| +I | 20         |", "| +I | 30         |", "Received 3 rows",
                "| table name |", "| numbers    |", "1 row in set");
    }

    @Test
    void execute_inTableMode_printsTheResultTable() {
        assertThat(sql("-e", "SELECT 'm1' AS machine, 3 AS readings;", "--result-mode", "table")).as("stderr: %s", err).isZero();
        assertThat(out.toString()).contains("| machine | readings |", "| m1      | 3        |", "Query ended after 1 change");
    }

    @Test
    void execute_setResultModeLikeFlinksClient_switchesToTheTable() {
        assertThat(sql("-e", "SET 'sql-client.execution.result-mode' = 'table'; SELECT 'm2' AS machine;")).as("stderr: %s", err).isZero();
        assertThat(out.toString()).contains("Set 'sql-client.execution.result-mode' = 'table'", "| machine |", "| m2      |",
                "Query ended after 1 change");
    }

    @Test
    void withoutFileOrStatements_theShellReadsStandardInput_andSavesItsHistory() throws IOException {
        java.io.InputStream stdin = System.in;
        java.io.PrintStream stdout = System.out;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        Path history = dir.resolve("history");
        int exit;
        System.setIn(new java.io.ByteArrayInputStream("SELECT 40 + 2 AS answer;\nquit;\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            exit = sql("--history", history.toString(), "--parallelism", "1");
        } finally {
            System.setIn(stdin);
            System.setOut(stdout);
        }
        assertThat(exit).as("stderr: %s", err).isZero();
        assertThat(printed.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("| +I | 42         |", "Bye.");
        assertThat(Files.readString(history)).contains("SELECT 40 + 2 AS answer;");
    }

    @Test
    void badOptions_exitTwo_namingThem() {
        assertThat(sql("-e", "SHOW TABLES;", "--result-mode", "fancy")).isEqualTo(2);
        assertThat(err.toString()).contains("result mode 'fancy' is unknown; accepted: changelog, table, tableau");
        assertThat(sql("-e", "SHOW TABLES;", "--parallelism", "zero")).isEqualTo(2);
        assertThat(err.toString()).contains("parallelism");
        assertThat(sql("-e", "BEGIN STATEMENT SET;")).isEqualTo(1);
        assertThat(err.toString()).contains("BEGIN STATEMENT SET has no END");
    }

    static List<String> lines(Path directory) throws IOException {
        List<String> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path f : files.filter(p -> !p.getFileName().toString().startsWith(".")).sorted().toList()) {
                all.addAll(Files.readAllLines(f));
            }
        }
        return all;
    }
}
