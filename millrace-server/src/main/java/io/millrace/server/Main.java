package io.millrace.server;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code millrace} command line. */
@Command(
        name = "millrace",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Millrace: stream processing for industrial telemetry.",
        subcommands = {DemoCommand.class})
public final class Main implements Runnable {

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the CLI and returns its exit code; for tests. */
    public static int run(String... args) {
        return new CommandLine(new Main())
                .registerConverter(java.time.Duration.class, DurationConverter::parse)
                .execute(args);
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
