package io.millrace.server;

import io.millrace.api.ConfigOptions;
import io.millrace.api.ConfigValues;
import io.millrace.api.PipelineConfig;
import io.millrace.server.sql.ResultMode;
import io.millrace.server.sql.SqlRunner;
import io.millrace.server.sql.SqlShell;
import io.millrace.sql.SqlException;
import io.millrace.sql.SqlSession;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.terminal.impl.DumbTerminal;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code millrace sql}: the SQL client. Without {@code -f} or {@code -e} an interactive shell; with them, the
 * statements of a file or of the command line run one after the other, each INSERT job to its end (or until it is
 * stopped), and the command exits 0, or 1 at the first statement that fails (its message names the line and column,
 * with a caret under it), or 2 for a bad command line or configuration. Jobs start from the configuration of the file,
 * {@code millrace.*} system properties, {@code -D} and the flags, as for {@code millrace run}; {@code SET} statements
 * apply on top.
 */
@Command(
        name = "sql",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Runs SQL statements: an interactive shell, or the statements of a file (-f) or of the",
            "command line (-e). Jobs start from this configuration, lowest first: the config file,",
            "millrace.* system properties, -D, the flags below; SET statements apply on top.",
            "Exit codes: 0 done; 1 a statement failed; 2 bad command line or configuration."
        })
final class SqlCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Runs the statements of FILE, then exits.")
    Path file;

    @Option(names = {"-e", "--execute"}, paramLabel = "STATEMENTS", description = "Runs the statements given, then exits.")
    String execute;

    @Option(names = "--result-mode", paramLabel = "MODE", defaultValue = "changelog",
            description = "How a query shows its rows: changelog (every change with its kind) or table (the current rows). Default: changelog.")
    String resultMode;

    @Option(names = "--history", paramLabel = "FILE", description = "The shell's history file. Default: ~/.millrace_sql_history.")
    Path history;

    @Mixin
    JobOptions settings;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (file != null && execute != null) {
            err.println("millrace sql: give either -f FILE or -e STATEMENTS, not both");
            return 2;
        }
        ResultMode mode;
        PipelineConfig config;
        String script = null;
        Path reading = settings.configFile;
        try {
            mode = ResultMode.parse(resultMode);
            ConfigValues values = settings.configuration();
            reading = file;
            ConfigOptions.validate(values);
            StateBackendCheck.check(values, SqlCommand.class.getClassLoader());
            config = ConfigOptions.apply(PipelineConfig.defaults(), values);
            if (file != null) {
                script = Files.readString(file, StandardCharsets.UTF_8);
            }
        } catch (IllegalArgumentException e) {
            err.println("millrace sql: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("millrace sql: cannot read " + reading + ": " + e);
            return 2;
        }
        SqlSession session = SqlSession.create(config);
        if (file == null && execute == null) {
            return shell(session, mode, err);
        }
        String text = file != null ? script : execute;
        SqlRunner runner = new SqlRunner(session, out, mode, null);
        try {
            runner.runScript(text);
        } catch (SqlException e) {
            out.flush();
            err.println((file != null ? file + ": " : "") + e.getMessage());
            err.flush();
            return 1;
        }
        if (runner.inStatementSet()) {
            err.println((file != null ? file + ": " : "") + "BEGIN STATEMENT SET has no END: its INSERT statements were not run");
            return 1;
        }
        out.flush();
        return 0;
    }

    private int shell(SqlSession session, ResultMode mode, PrintWriter err) {
        Path historyFile = history != null ? history : Path.of(System.getProperty("user.home"), ".millrace_sql_history");
        // without a console (input from a pipe or a file) a dumb terminal over System.in: a system terminal would read the
        // process's file descriptor 0 directly, past whatever System.in was set to
        try (Terminal terminal = System.console() == null ? new DumbTerminal(System.in, System.out)
                : TerminalBuilder.builder().name("millrace-sql").system(true).build()) {
            return new SqlShell(session, terminal, historyFile, mode).run();
        } catch (IOException e) {
            err.println("millrace sql: cannot open the terminal: " + e);
            return 2;
        }
    }
}
