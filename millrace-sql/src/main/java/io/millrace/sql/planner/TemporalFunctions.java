package io.millrace.sql.planner;

import io.millrace.sql.types.UnsupportedSql;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.Locale;

/** Reading and writing timestamps with patterns, for {@code TO_TIMESTAMP} and {@code DATE_FORMAT}; UTC. */
final class TemporalFunctions {
    private TemporalFunctions() {}

    /** Flink's default pattern of {@code TO_TIMESTAMP}. */
    static final String DEFAULT_FORMAT = "yyyy-MM-dd HH:mm:ss";

    /**
     * A formatter of {@code pattern} ({@link DateTimeFormatter}'s letters, which agree with Flink's for
     * {@code yyyy MM dd HH mm ss SSS}); missing fields default to the start of the year and day. {@code yyyy} is read
     * as the proleptic year, so patterns without an era work.
     */
    static DateTimeFormatter formatter(String pattern) {
        try {
            return new DateTimeFormatterBuilder().appendPattern(pattern.replace('y', 'u'))
                    .parseDefaulting(ChronoField.MONTH_OF_YEAR, 1).parseDefaulting(ChronoField.DAY_OF_MONTH, 1)
                    .parseDefaulting(ChronoField.HOUR_OF_DAY, 0).parseDefaulting(ChronoField.MINUTE_OF_HOUR, 0)
                    .parseDefaulting(ChronoField.SECOND_OF_MINUTE, 0).toFormatter(Locale.ROOT).withResolverStyle(ResolverStyle.STRICT)
                    .withZone(ZoneOffset.UTC);
        } catch (IllegalArgumentException e) {
            throw new UnsupportedSql("the date-time pattern '" + pattern + "' is invalid: " + e.getMessage());
        }
    }

    /** A pattern checked when planned; its formatter (not serializable) is made again where the expression runs. */
    static final class Pattern implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private final String pattern;
        private transient DateTimeFormatter formatter;

        Pattern(String pattern) {
            this.pattern = pattern;
            this.formatter = formatter(pattern);
        }

        DateTimeFormatter get() {
            if (formatter == null) {
                formatter = formatter(pattern);
            }
            return formatter;
        }
    }

    /** Epoch milliseconds of {@code text} read with {@code f} in UTC, or null when it does not match. */
    static Long parse(String text, DateTimeFormatter f) {
        try {
            return LocalDateTime.parse(text.trim(), f).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    static String format(long millis, DateTimeFormatter f) {
        return f.format(Instant.ofEpochMilli(millis));
    }
}
