package io.millrace.server;

import io.millrace.api.ConfigException;
import io.millrace.api.ConfigOptions;
import io.millrace.api.ConfigValues;
import java.util.List;

/**
 * The {@code --restart} shorthand: {@code fixed-delay:3:5s} is {@code restart.strategy=fixed-delay},
 * {@code restart.attempts=3}, {@code restart.delay=5s}. Parts left out take the options' defaults; the values
 * are checked by the option registry like any other.
 */
final class RestartFlag {
    private static final String ORIGIN = "flag --restart";
    private static final List<String> FIXED = List.of("restart.attempts", "restart.delay");
    private static final List<String> EXPONENTIAL = List.of("restart.attempts", "restart.delay", "restart.max-delay", "restart.multiplier");

    private RestartFlag() {}

    static ConfigValues parse(String text) {
        String[] parts = text.trim().split(":", -1);
        String kind = parts[0];
        List<String> names = switch (kind) {
            case "none" -> List.of();
            case "fixed-delay" -> FIXED;
            case "exponential-backoff" -> EXPONENTIAL;
            default -> throw new ConfigException(ConfigOptions.RESTART_STRATEGY.key(), "--restart '" + text
                    + "': unknown strategy '" + kind + "'. Accepted: none, fixed-delay[:ATTEMPTS[:DELAY]], "
                    + "exponential-backoff[:ATTEMPTS[:DELAY[:MAX-DELAY[:MULTIPLIER]]]].");
        };
        if (parts.length - 1 > names.size()) {
            throw new ConfigException(ConfigOptions.RESTART_STRATEGY.key(), "--restart '" + text + "': " + kind
                    + " takes at most " + names.size() + " parts after the name" + (names.isEmpty() ? "" : ": " + String.join(", ", names)));
        }
        ConfigValues v = ConfigValues.empty().with(ConfigOptions.RESTART_STRATEGY.key(), kind, ORIGIN);
        for (int i = 1; i < parts.length; i++) {
            v = v.with(names.get(i - 1), parts[i], ORIGIN);
        }
        return v;
    }
}
