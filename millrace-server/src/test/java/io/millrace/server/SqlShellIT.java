package io.millrace.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.PipelineConfig;
import io.millrace.server.sql.ResultMode;
import io.millrace.server.sql.SqlShell;
import io.millrace.sql.SqlSession;
import io.millrace.testing.Await;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The interactive SQL shell, driven over a dumb terminal: multi-line statements, results, errors, history, Ctrl-C. */
class SqlShellIT {
    @TempDir
    Path dir;

    /** Output of another thread, read safely. */
    static final class Output extends OutputStream {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public synchronized void write(int b) {
            bytes.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            bytes.write(b, off, len);
        }

        synchronized String text() {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void pipedStatements_overSeveralLines_runAndPrint_errorsDoNotEndTheShell_andHistoryIsSaved() throws IOException {
        String input = """
                CREATE TABLE numbers (n BIGINT)
                  WITH ('connector' = 'datagen', 'fields.n.kind' = 'sequence',
                        'fields.n.start' = '1', 'fields.n.end' = '4');
                SELECT n FROM numbers WHERE n <> 2;
                SELECT nosuch FROM numbers;
                DESCRIBE numbers;
                quit;
                """;
        Output out = new Output();
        Path history = dir.resolve("history");
        int exit;
        try (Terminal terminal = new DumbTerminal(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out)) {
            exit = new SqlShell(SqlSession.create(PipelineConfig.defaults().parallelism(1)), terminal, history, ResultMode.CHANGELOG).run();
        }
        String printed = out.text();
        assertThat(exit).isZero();
        assertThat(printed).contains("Table 'numbers' created", "| +I | 1          |", "| +I | 3          |", "| +I | 4          |",
                "Received 3 rows", "[ERROR] line 1, column 8: Column 'nosuch' not found in any table", "| name | type   |", "Bye.");
        assertThat(printed).doesNotContain("| +I | 2          |");
        assertThat(printed.split("millrace> ", -1)).as("one prompt per statement: the three lines of CREATE TABLE are one").hasSize(6);
        assertThat(Files.readString(history)).contains("DESCRIBE numbers;", "SELECT n FROM numbers WHERE n <> 2;");
    }

    @Test
    void ctrlC_stopsTheRunningQuery_notTheShell() throws Exception {
        PipedOutputStream keyboard = new PipedOutputStream();
        PipedInputStream in = new PipedInputStream(keyboard, 1 << 16);
        Output out = new Output();
        try (Terminal terminal = new DumbTerminal(in, out)) {
            SqlShell shell = new SqlShell(SqlSession.create(PipelineConfig.defaults().parallelism(1)), terminal, null, ResultMode.CHANGELOG);
            CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(shell::run);
            type(keyboard, "CREATE TABLE ticks (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '50');\n"
                    + "SELECT n FROM ticks;\n");
            Await.until("the unbounded query prints rows", Duration.ofSeconds(60), () -> out.text().contains("| +I |"));
            terminal.raise(Terminal.Signal.INT);
            Await.until("the query stops", Duration.ofSeconds(60), () -> out.text().contains("Query stopped after"));
            type(keyboard, "SHOW TABLES;\nquit;\n");
            assertThat(exit.get(60, java.util.concurrent.TimeUnit.SECONDS)).isZero();
        }
        assertThat(out.text()).contains("| ticks      |", "Bye.");
    }

    private static void type(OutputStream keyboard, String text) throws IOException {
        keyboard.write(text.getBytes(StandardCharsets.UTF_8));
        keyboard.flush();
    }
}
