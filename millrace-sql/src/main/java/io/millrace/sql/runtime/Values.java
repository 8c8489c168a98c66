package io.millrace.sql.runtime;

import io.millrace.api.row.FieldType;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;

/** Conversions between the value types of compiled expressions, with SQL's rules; the session time zone is UTC. */
public final class Values {
    private static final DateTimeFormatter TIMESTAMP_OUT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    private static final DateTimeFormatter TIME_OUT = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final DateTimeFormatter TIME_MILLIS_OUT = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");
    private static final DateTimeFormatter TIMESTAMP_IN = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd[ ]['T']HH:mm[:ss]")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .toFormatter();

    private Values() {}

    /** {@code value} as a value of {@code target}: SQL's CAST. Fails naming the value when it does not convert. */
    public static Object cast(Object value, FieldType target) {
        if (value == null) {
            return null;
        }
        switch (target) {
            case STRING:
                return toText(value);
            case BOOLEAN:
                if (value instanceof Boolean) {
                    return value;
                }
                if (value instanceof String s) {
                    String t = s.trim();
                    if (t.equalsIgnoreCase("true")) {
                        return Boolean.TRUE;
                    }
                    if (t.equalsIgnoreCase("false")) {
                        return Boolean.FALSE;
                    }
                    throw new IllegalArgumentException("cannot cast '" + s + "' to BOOLEAN");
                }
                return ((Number) value).doubleValue() != 0;
            case DATE:
            case TIME:
                if (value instanceof String) {
                    return castTemporal(value, FieldType.STRING, target);
                }
                if (value instanceof Integer) {
                    return value; // already days or milliseconds of the day
                }
                throw new IllegalArgumentException("cannot cast " + value + " to " + target);
            case TIMESTAMP:
                if (value instanceof String s) {
                    return parseTimestamp(s);
                }
                return ((Number) value).longValue();
            default:
                Number n;
                if (value instanceof String s) {
                    n = parseNumber(s, target);
                } else if (value instanceof Boolean b) {
                    n = b ? 1 : 0;
                } else {
                    n = (Number) value;
                }
                return switch (target) {
                    case INT -> n.intValue();
                    case BIGINT -> n.longValue();
                    case FLOAT -> n.floatValue();
                    case DOUBLE -> n.doubleValue();
                    default -> throw new IllegalStateException(target.toString());
                };
        }
    }

    private static Number parseNumber(String s, FieldType target) {
        String t = s.trim();
        try {
            if (target == FieldType.INT || target == FieldType.BIGINT) {
                return t.contains(".") ? (Number) new java.math.BigDecimal(t).longValue() : Long.parseLong(t);
            }
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("cannot cast '" + s + "' to " + target);
        }
    }

    /** Milliseconds since the epoch of a timestamp written {@code yyyy-MM-dd HH:mm:ss[.fff]} (UTC) or as an ISO-8601 instant. */
    public static long parseTimestamp(String s) {
        String t = s.trim();
        try {
            if (t.endsWith("Z")) {
                return Instant.parse(t).toEpochMilli();
            }
            return LocalDateTime.parse(t, TIMESTAMP_IN).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("cannot cast '" + s + "' to TIMESTAMP: expected yyyy-MM-dd HH:mm:ss[.SSS]");
        }
    }

    /**
     * SQL's CAST where a DATE or a TIME is the source or the target: to and from their text ({@code yyyy-MM-dd},
     * {@code HH:mm:ss[.SSS]}), a TIMESTAMP to its date or its time of day (UTC), and a DATE to the TIMESTAMP of its
     * midnight. Fails naming the value and both types when the cast does not exist or the text does not parse.
     */
    public static Object castTemporal(Object value, FieldType source, FieldType target) {
        if (value == null) {
            return null;
        }
        if (source == target) {
            return value;
        }
        if (target == FieldType.STRING) {
            return source == FieldType.DATE ? formatDate((Integer) value) : formatTime((Integer) value);
        }
        if (source == FieldType.STRING) {
            String s = ((String) value).trim();
            try {
                return target == FieldType.DATE ? (int) LocalDate.parse(s).toEpochDay()
                        : (int) (LocalTime.parse(s).toNanoOfDay() / 1_000_000L);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("cannot cast '" + value + "' to " + target + ": expected "
                        + (target == FieldType.DATE ? "yyyy-MM-dd" : "HH:mm[:ss[.SSS]]"));
            }
        }
        if (source == FieldType.TIMESTAMP && target == FieldType.DATE) {
            return (int) Math.floorDiv((Long) value, 86_400_000L);
        }
        if (source == FieldType.TIMESTAMP && target == FieldType.TIME) {
            return (int) Math.floorMod((Long) value, 86_400_000L);
        }
        if (source == FieldType.DATE && target == FieldType.TIMESTAMP) {
            return ((Integer) value) * 86_400_000L;
        }
        throw new IllegalArgumentException("cannot cast " + source + " to " + target);
    }

    /** A date's text, {@code yyyy-MM-dd}. */
    public static String formatDate(int epochDay) {
        return LocalDate.ofEpochDay(epochDay).toString();
    }

    /** A time of day's text, {@code HH:mm:ss} or {@code HH:mm:ss.SSS} when it has milliseconds. */
    public static String formatTime(int millisOfDay) {
        LocalTime t = LocalTime.ofNanoOfDay(millisOfDay * 1_000_000L);
        return millisOfDay % 1000 == 0 ? TIME_OUT.format(t) : TIME_MILLIS_OUT.format(t);
    }

    /** A timestamp's text, {@code yyyy-MM-dd HH:mm:ss.SSS} in UTC. */
    public static String formatTimestamp(long millis) {
        return TIMESTAMP_OUT.format(LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000), (int) Math.floorMod(millis, 1000) * 1_000_000, ZoneOffset.UTC));
    }

    private static String toText(Object value) {
        if (value instanceof Boolean b) {
            return b ? "TRUE" : "FALSE";
        }
        return value.toString();
    }

    /** Compares two non-null values of comparable types: numbers by value, strings, booleans. */
    @SuppressWarnings("unchecked")
    public static int compare(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            if (x instanceof Double || x instanceof Float || y instanceof Double || y instanceof Float) {
                return Double.compare(x.doubleValue(), y.doubleValue());
            }
            return Long.compare(x.longValue(), y.longValue());
        }
        return ((Comparable<Object>) a).compareTo(b);
    }
}
