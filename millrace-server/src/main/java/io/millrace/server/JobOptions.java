package io.millrace.server;

import io.millrace.api.ConfigValues;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The configuration options that {@code millrace run} and {@code millrace sql} share (a picocli mixin), and the
 * configuration they make: the layers, lowest first, are the config file, the {@code millrace.*} system properties,
 * {@code -D} and the flags.
 */
final class JobOptions {
    @Option(names = "--config", paramLabel = "FILE", description = "A config file: 'key: value' lines, '#' comments.")
    Path configFile;

    @Option(names = "-D", paramLabel = "KEY=VALUE", description = "Sets an option, e.g. -D checkpoint.mode=at-least-once. Repeatable.")
    Map<String, String> options = new LinkedHashMap<>();

    @Option(names = "--parallelism", paramLabel = "N", description = "Same as -D parallelism=N.")
    String parallelism;

    @Option(names = "--checkpoint-dir", paramLabel = "DIR", description = "Same as -D checkpoint.dir=DIR: turns checkpoints on.")
    String checkpointDir;

    @Option(names = "--checkpoint-interval", paramLabel = "DURATION", description = "Same as -D checkpoint.interval=DURATION, e.g. 10s.")
    String checkpointInterval;

    @Option(names = "--restore-from", paramLabel = "PATH",
            description = "Same as -D checkpoint.restore-from=PATH: starts from this savepoint or checkpoint (e.g. printed by 'millrace savepoint').")
    String restoreFrom;

    @Option(names = "--restart", paramLabel = "STRATEGY", description = {
        "none, fixed-delay[:ATTEMPTS[:DELAY]] or exponential-backoff[:ATTEMPTS[:DELAY[:MAX-DELAY[:MULTIPLIER]]]],"
            + " e.g. fixed-delay:3:5s. Replaces all restart.* options of the file, properties and -D."})
    String restart;

    /** The merged configuration; reads the config file if one was given. */
    ConfigValues configuration() throws IOException {
        ConfigValues v = configFile == null ? ConfigValues.empty() : ConfigValues.fromFile(configFile);
        v = v.overlay(ConfigValues.fromSystemProperties());
        for (Map.Entry<String, String> e : options.entrySet()) {
            String key = e.getKey().startsWith(ConfigValues.SYSTEM_PROPERTY_PREFIX)
                    ? e.getKey().substring(ConfigValues.SYSTEM_PROPERTY_PREFIX.length()) : e.getKey();
            v = v.with(key, e.getValue(), "-D " + e.getKey());
        }
        v = flag(v, "parallelism", parallelism, "--parallelism");
        v = flag(v, "checkpoint.dir", checkpointDir, "--checkpoint-dir");
        v = flag(v, "checkpoint.interval", checkpointInterval, "--checkpoint-interval");
        v = flag(v, "checkpoint.restore-from", restoreFrom, "--restore-from");
        if (restart != null) {
            v = v.without(k -> k.startsWith("restart.")).overlay(RestartFlag.parse(restart));
        }
        return v;
    }

    private static ConfigValues flag(ConfigValues v, String key, String value, String flag) {
        return value == null ? v : v.with(key, value, "flag " + flag);
    }
}
