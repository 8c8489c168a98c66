package io.millrace.sql.runtime;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;

/**
 * One aggregate call of a window aggregation: its function, how to read its argument (a column read with its typed
 * getter, or a compiled expression) and its result type. Its accumulator is two {@code long}s: a value (a
 * {@code long}, or a {@code double}'s bits when {@code floating}) and the count of non-null arguments.
 */
public record AggregateCall(Kind kind, int column, FieldType argType, Expr arg, boolean floating, FieldType resultType, String text)
        implements java.io.Serializable {
    /** The functions. */
    public enum Kind { COUNT_STAR, COUNT, SUM, MIN, MAX, AVG }

    /** Adds the argument of {@code row} to the accumulator at {@code slots[at]}, {@code slots[at + 1]}. */
    void add(Row row, long[] slots, int at) {
        if (kind == Kind.COUNT_STAR) {
            slots[at + 1]++;
            return;
        }
        long v;
        if (column >= 0) {
            if (row.isNullAt(column)) {
                return;
            }
            v = read(row);
        } else {
            Object o = arg.eval(row);
            if (o == null) {
                return;
            }
            v = bits(o);
        }
        long count = slots[at + 1];
        switch (kind) {
            case COUNT -> { }
            case SUM, AVG -> slots[at] = floating ? Double.doubleToRawLongBits(Double.longBitsToDouble(slots[at]) + Double.longBitsToDouble(v)) : slots[at] + v;
            case MIN -> {
                if (count == 0 || less(v, slots[at])) {
                    slots[at] = v;
                }
            }
            case MAX -> {
                if (count == 0 || less(slots[at], v)) {
                    slots[at] = v;
                }
            }
            default -> throw new IllegalStateException(kind.toString());
        }
        slots[at + 1] = count + 1;
    }

    private long read(Row row) {
        if (floating) {
            double d = switch (argType) {
                case DOUBLE -> row.getDouble(column);
                case FLOAT -> row.getFloat(column);
                case INT -> row.getInt(column);
                default -> row.getLong(column);
            };
            return Double.doubleToRawLongBits(d);
        }
        return switch (argType) {
            case INT -> row.getInt(column);
            case BOOLEAN -> row.getBoolean(column) ? 1 : 0;
            default -> row.getLong(column);
        };
    }

    private long bits(Object o) {
        if (o instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (floating) {
            return Double.doubleToRawLongBits(((Number) o).doubleValue());
        }
        if (!(o instanceof Number n)) {
            return 0; // COUNT of a string: only its being non-null matters
        }
        return n.longValue();
    }

    private boolean less(long a, long b) {
        return floating ? Double.longBitsToDouble(a) < Double.longBitsToDouble(b) : a < b;
    }

    /** Merges the accumulator at {@code from[at]} into {@code into[at]}. */
    void merge(long[] into, long[] from, int at) {
        long fc = from[at + 1];
        if (fc == 0) {
            return;
        }
        long ic = into[at + 1];
        switch (kind) {
            case COUNT_STAR, COUNT -> { }
            case SUM, AVG -> into[at] = floating ? Double.doubleToRawLongBits(Double.longBitsToDouble(into[at]) + Double.longBitsToDouble(from[at]))
                    : into[at] + from[at];
            case MIN -> {
                if (ic == 0 || less(from[at], into[at])) {
                    into[at] = from[at];
                }
            }
            case MAX -> {
                if (ic == 0 || less(into[at], from[at])) {
                    into[at] = from[at];
                }
            }
        }
        into[at + 1] = ic + fc;
    }

    /** The result of the accumulator at {@code slots[at]}: a value of {@link #resultType}, or null for no rows. */
    Object result(long[] slots, int at) {
        long count = slots[at + 1];
        if (kind == Kind.COUNT_STAR || kind == Kind.COUNT) {
            return Values.cast(count, resultType);
        }
        if (count == 0) {
            return null;
        }
        long v = slots[at];
        if (kind == Kind.AVG) {
            return floating ? Values.cast(Double.longBitsToDouble(v) / count, resultType) : Values.cast(v / count, resultType);
        }
        if (resultType == FieldType.BOOLEAN) {
            return v != 0;
        }
        return floating ? Values.cast(Double.longBitsToDouble(v), resultType) : Values.cast(v, resultType);
    }
}
