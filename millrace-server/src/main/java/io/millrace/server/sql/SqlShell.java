package io.millrace.server.sql;

import io.millrace.sql.SqlException;
import io.millrace.sql.SqlSession;
import io.millrace.sql.parser.Statement;
import io.millrace.sql.parser.StatementParser;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.jline.reader.EOFError;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.ParsedLine;
import org.jline.reader.Parser;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;
import org.jline.utils.InfoCmp;

/**
 * The interactive SQL client: reads statements with line editing and a history file, a statement over as many lines
 * as it takes until its {@code ;} (a statement set until its {@code END;}), runs each with a {@link SqlRunner} and
 * prints the result. Ctrl-C while a query or an INSERT runs stops that job and returns to the prompt; Ctrl-C at the
 * prompt clears the line; {@code QUIT;}, {@code EXIT;} or Ctrl-D ends the shell.
 */
public final class SqlShell {
    static final String PROMPT = "millrace> ";
    static final String CONTINUATION = "        > ";

    private final Terminal terminal;
    private final SqlRunner runner;
    private final LineReader reader;
    private final PrintWriter out;

    /** A shell on {@code terminal}, keeping its history in {@code historyFile} (null: no history file). */
    public SqlShell(SqlSession session, Terminal terminal, Path historyFile, ResultMode mode) {
        this.terminal = terminal;
        this.out = terminal.writer();
        boolean canClear = !Terminal.TYPE_DUMB.equals(terminal.getType()) && !Terminal.TYPE_DUMB_COLOR.equals(terminal.getType())
                && terminal.getStringCapability(InfoCmp.Capability.clear_screen) != null;
        this.runner = new SqlRunner(session, out, mode, canClear ? () -> {
            terminal.puts(InfoCmp.Capability.clear_screen);
            terminal.flush();
        } : null);
        LineReaderBuilder b = LineReaderBuilder.builder().terminal(terminal).appName("millrace-sql").parser(new StatementLines())
                .variable(LineReader.SECONDARY_PROMPT_PATTERN, CONTINUATION)
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true);
        if (historyFile != null) {
            b.variable(LineReader.HISTORY_FILE, historyFile);
        }
        this.reader = b.build();
    }

    /** Reads and runs statements until QUIT, EXIT or the end of the input; returns 0. */
    public int run() {
        out.println("Millrace SQL. Statements end with ';'. Ctrl-C stops a running query; QUIT; leaves.");
        out.flush();
        Terminal.SignalHandler previous = terminal.handle(Terminal.Signal.INT, signal -> runner.stopCurrent());
        try {
            while (true) {
                String text;
                try {
                    text = reader.readLine(PROMPT);
                } catch (UserInterruptException e) {
                    continue;
                } catch (EndOfFileException e) {
                    break;
                }
                String command = text.strip().toLowerCase(Locale.ROOT);
                if (command.isEmpty()) {
                    continue;
                }
                if (isQuit(command)) {
                    break;
                }
                if (command.equals("help;") || command.equals("help")) {
                    help();
                    continue;
                }
                runText(text);
            }
        } finally {
            terminal.handle(Terminal.Signal.INT, previous);
            saveHistory();
        }
        out.println("Bye.");
        out.flush();
        return 0;
    }

    private void runText(String text) {
        try {
            List<Statement> statements = StatementParser.parse(text);
            for (Statement s : statements) {
                runner.run(s, text);
            }
        } catch (SqlException e) {
            out.println("[ERROR] " + e.getMessage());
        } catch (RuntimeException e) {
            out.println("[ERROR] " + e);
        }
        out.flush();
    }

    private void saveHistory() {
        try {
            reader.getHistory().save();
        } catch (java.io.IOException | RuntimeException e) {
            out.println("[WARN] the history could not be saved: " + e.getMessage());
        }
    }

    private void help() {
        out.println("""
                Statements (each ends with ';'): CREATE TABLE, CREATE VIEW, DROP, SHOW TABLES, DESCRIBE, SET, RESET, EXPLAIN,
                SELECT ..., INSERT INTO ..., EXECUTE STATEMENT SET BEGIN ...; ...; END;, BEGIN STATEMENT SET; ... END;
                SET 'sql-client.execution.result-mode' = 'changelog' | 'table';   how queries show their rows
                Ctrl-C stops a running query or INSERT; QUIT; (or Ctrl-D) leaves.""");
    }

    static boolean isQuit(String command) {
        return command.equals("quit;") || command.equals("exit;") || command.equals("quit") || command.equals("exit");
    }

    /** Asks for more lines until the text holds whole statements (see {@link StatementParser#isComplete}). */
    static final class StatementLines implements Parser {
        private final DefaultParser words = new DefaultParser();

        @Override
        public ParsedLine parse(String line, int cursor, ParseContext context) {
            if (context == ParseContext.ACCEPT_LINE) {
                String command = line.strip().toLowerCase(Locale.ROOT);
                if (!command.isEmpty() && !isQuit(command) && !command.equals("help") && !StatementParser.isComplete(line)) {
                    throw new EOFError(-1, cursor, "the statement goes on until ';'", ";");
                }
            }
            return words.parse(line, cursor, context);
        }
    }
}
