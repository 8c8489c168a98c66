package io.millrace.sql.runtime;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import java.math.BigDecimal;
import java.math.RoundingMode;
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
            case DECIMAL:
                return toDecimal(value);
            case ROW:
                if (!(value instanceof Row)) {
                    throw new IllegalArgumentException("cannot cast " + value + " to ROW");
                }
                return value;
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
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        return value.toString();
    }

    /** A number (or its text, or a boolean as 1 or 0) as a BigDecimal of its own scale; fails naming text that is no number. */
    public static BigDecimal toDecimal(Object value) {
        if (value instanceof BigDecimal d) {
            return d;
        }
        if (value instanceof Long || value instanceof Integer) {
            return BigDecimal.valueOf(((Number) value).longValue());
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new IllegalArgumentException("cannot cast " + d + " to DECIMAL");
            }
            return new BigDecimal(Double.toString(d));
        }
        if (value instanceof Boolean b) {
            return b ? BigDecimal.ONE : BigDecimal.ZERO;
        }
        if (value instanceof String str) {
            try {
                return new BigDecimal(str.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("cannot cast '" + str + "' to DECIMAL");
            }
        }
        throw new IllegalArgumentException("cannot cast " + value + " to DECIMAL");
    }

    /**
     * SQL's CAST to {@code DECIMAL(precision, scale)}: rounded half-up to the scale; null (as in Flink) when the value
     * has more digits before the point than the type allows.
     */
    public static BigDecimal castDecimal(Object value, int precision, int scale) {
        return value == null ? null : fit(toDecimal(value), precision, scale);
    }

    /** {@code v} rounded half-up to {@code scale}, or null if it then has more than {@code precision} digits (Flink's overflow). */
    public static BigDecimal fit(BigDecimal v, int precision, int scale) {
        BigDecimal r = v.scale() == scale ? v : v.setScale(scale, RoundingMode.HALF_UP);
        return r.precision() > precision ? null : r;
    }

    /**
     * True when rows of {@code a} convert to rows of {@code b} by position ({@link #conform}): as many fields, of the
     * same types, nested rows alike; names and nullability may differ.
     */
    public static boolean sameShape(RowType a, RowType b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.type(i) != b.type(i) || a.type(i) == FieldType.ROW && !sameShape(a.rowType(i), b.rowType(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code row} as a row of {@code type}: itself if it has that type, else its values by position, nested rows
     * converted alike (see {@link #sameShape}).
     */
    public static Row conform(Row row, RowType type) {
        if (row == null || row.type().equals(type)) {
            return row;
        }
        if (row.size() != type.size()) {
            throw new IllegalArgumentException("a row of " + row.type() + " does not fit " + type);
        }
        Object[] values = new Object[type.size()];
        for (int i = 0; i < values.length; i++) {
            Object v = row.getField(i);
            values[i] = v instanceof Row r && type.type(i) == FieldType.ROW ? conform(r, type.rowType(i)) : v;
        }
        return Row.of(type, values);
    }

    /** Compares two non-null values of comparable types: numbers by value (decimals exactly), strings, booleans. */
    @SuppressWarnings("unchecked")
    public static int compare(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            if (x instanceof Double || x instanceof Float || y instanceof Double || y instanceof Float) {
                return Double.compare(x.doubleValue(), y.doubleValue());
            }
            if (x instanceof BigDecimal || y instanceof BigDecimal) {
                return toDecimal(x).compareTo(toDecimal(y));
            }
            return Long.compare(x.longValue(), y.longValue());
        }
        return ((Comparable<Object>) a).compareTo(b);
    }
}
