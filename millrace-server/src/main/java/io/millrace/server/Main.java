package io.millrace.server;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code millrace} command line. */
@Command(
        name = "millrace",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Millrace: stream processing for industrial telemetry.",
        subcommands = {DemoCommand.class, RunCommand.class, SqlCommand.class, SavepointCommand.class, NewJobCommand.class})
public final class Main implements Runnable {

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the CLI and returns its exit code: 0 done, 1 the job failed, 2 a usage or configuration error. */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /** Runs the CLI writing picocli's and the commands' messages to {@code out} and {@code err}; for tests. */
    static int run(java.io.PrintWriter out, java.io.PrintWriter err, String... args) {
        return commandLine().setOut(out).setErr(err).execute(args);
    }

    static CommandLine commandLine() {
        return new CommandLine(new Main())
                .registerConverter(java.time.Duration.class, io.millrace.api.ConfigType::parseDuration);
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"millrace " + (v == null ? "development build" : v)};
        }
    }
}
