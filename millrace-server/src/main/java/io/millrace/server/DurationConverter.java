package io.millrace.server;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads durations as people write them: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, or ISO-8601. */
final class DurationConverter {
    private static final Pattern SIMPLE = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");

    private DurationConverter() {}

    static Duration parse(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        Matcher m = SIMPLE.matcher(t);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            };
        }
        try {
            return Duration.parse(text.trim().toUpperCase(java.util.Locale.ROOT));
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration: write e.g. 500ms, 30s, 5m or 1h");
        }
    }
}
