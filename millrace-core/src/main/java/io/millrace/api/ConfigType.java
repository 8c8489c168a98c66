package io.millrace.api;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the text of an option becomes a value: its name, what it accepts (for messages and docs), and the
 * parser. A parser throws {@link IllegalArgumentException} with the reason; the registry adds the key,
 * value and origin. Immutable and thread-safe.
 *
 * @param <T> the parsed value
 */
public final class ConfigType<T> {
    private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");

    private final String name;
    private final String accepted;
    private final Function<String, T> parser;

    private ConfigType(String name, String accepted, Function<String, T> parser) {
        this.name = name;
        this.accepted = accepted;
        this.parser = parser;
    }

    /** A custom type: {@code parser} throws {@link IllegalArgumentException} for a value it refuses. */
    public static <T> ConfigType<T> of(String name, String accepted, Function<String, T> parser) {
        return new ConfigType<>(name, accepted, parser);
    }

    /** A whole number from {@code min} to {@code max}. */
    public static ConfigType<Integer> integer(int min, int max) {
        return new ConfigType<>("integer", min + "–" + max, text -> {
            int v;
            try {
                v = Integer.parseInt(text.trim().replace("_", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a whole number");
            }
            if (v < min || v > max) {
                throw new IllegalArgumentException("out of range");
            }
            return v;
        });
    }

    /** A decimal number of at least {@code min}. */
    public static ConfigType<Double> number(double min) {
        return new ConfigType<>("number", "a number ≥ " + trim(min), text -> {
            double v;
            try {
                v = Double.parseDouble(text.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a number");
            }
            if (!(v >= min) || Double.isInfinite(v)) {
                throw new IllegalArgumentException("below " + trim(min) + " or not finite");
            }
            return v;
        });
    }

    /** A duration ({@link #parseDuration}); {@code allowZero} false requires it to be positive. */
    public static ConfigType<Duration> duration(boolean allowZero) {
        String accepted = "a duration " + (allowZero ? "≥ 0" : "> 0") + " (500ms, 30s, 5m, 1h, 1d, PT30S)";
        return new ConfigType<>("duration", accepted, text -> {
            Duration d = parseDuration(text);
            if (d.isNegative() || (!allowZero && d.isZero())) {
                throw new IllegalArgumentException(allowZero ? "negative" : "not positive");
            }
            return d;
        });
    }

    /** {@code true} or {@code false}, in any case. */
    public static ConfigType<Boolean> bool() {
        return new ConfigType<>("boolean", "true, false", text -> {
            String t = text.trim().toLowerCase(Locale.ROOT);
            if (t.equals("true") || t.equals("false")) {
                return Boolean.valueOf(t);
            }
            throw new IllegalArgumentException("not a boolean");
        });
    }

    /** A file system path; relative paths are taken from the working directory. */
    public static ConfigType<Path> path() {
        return new ConfigType<>("path", "a file system path", text -> {
            if (text.isBlank()) {
                throw new IllegalArgumentException("empty");
            }
            try {
                return Path.of(text.trim());
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("not a valid path: " + e.getReason());
            }
        });
    }

    /**
     * One of an enum's constants, written in lower case with dashes ({@code AT_LEAST_ONCE} is
     * {@code at-least-once}); the constant's own spelling is accepted too.
     */
    public static <E extends Enum<E>> ConfigType<E> choice(Class<E> type) {
        Map<String, E> names = new LinkedHashMap<>();
        for (E e : type.getEnumConstants()) {
            names.put(e.name().toLowerCase(Locale.ROOT).replace('_', '-'), e);
        }
        return new ConfigType<>("choice", String.join(", ", names.keySet()), text -> {
            E e = names.get(text.trim().toLowerCase(Locale.ROOT).replace('_', '-'));
            if (e == null) {
                throw new IllegalArgumentException("not one of the accepted values");
            }
            return e;
        });
    }

    /** One of the given words, in any case; the parsed value is the word as listed. */
    public static ConfigType<String> oneOf(String... words) {
        List<String> list = List.of(words);
        return new ConfigType<>("choice", String.join(", ", list), text -> {
            String t = text.trim().toLowerCase(Locale.ROOT);
            if (!list.contains(t)) {
                throw new IllegalArgumentException("not one of the accepted values");
            }
            return t;
        });
    }

    /**
     * Reads durations as people write them: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 1d},
     * {@code 0}, or ISO-8601 ({@code PT30S}).
     *
     * @throws IllegalArgumentException naming the text when it is none of these
     */
    public static Duration parseDuration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = SIMPLE_DURATION.matcher(t);
        if (m.matches()) {
            long n;
            try {
                n = Long.parseLong(m.group(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "' is too large a duration");
            }
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        try {
            return Duration.parse(text.trim().toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration: write e.g. 500ms, 30s, 5m, 1h or PT30S");
        }
    }

    /** A short name of the type: integer, number, duration, boolean, path, choice or a custom name. */
    public String name() {
        return name;
    }

    /** What the type accepts, in words, e.g. {@code 1–32768} or {@code exactly-once, at-least-once}. */
    public String accepted() {
        return accepted;
    }

    /** Parses {@code text}; throws {@link IllegalArgumentException} with the reason when it is refused. */
    public T parse(String text) {
        return parser.apply(text);
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
