package io.millrace.sql.runtime;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * One aggregate call of a window aggregation: its function, how to read its argument (a column read with its typed
 * getter, or a compiled expression) and its result type. Its accumulator is {@link #width()} {@code long}s: a value
 * (a {@code long}, or a {@code double}'s bits when {@code floating}) and the count of non-null arguments; for a
 * SUM, AVG, MIN or MAX of a DECIMAL ({@code decimal} set), the value is the 128-bit unscaled value at the argument's
 * scale in two longs (high, low), then the count, then 1 if a sum overflowed 128 bits.
 */
public record AggregateCall(Kind kind, int column, FieldType argType, Expr arg, boolean floating, FieldType resultType, String text,
        Decimal decimal) implements java.io.Serializable {
    /** The functions. */
    public enum Kind { COUNT_STAR, COUNT, SUM, MIN, MAX, AVG }

    /** The scale the argument is accumulated at, and the DECIMAL result type's precision and scale. */
    public record Decimal(int argScale, int resultPrecision, int resultScale) implements java.io.Serializable {}

    private static final BigInteger LOW_64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    /** A call whose value is not a DECIMAL. */
    public AggregateCall(Kind kind, int column, FieldType argType, Expr arg, boolean floating, FieldType resultType, String text) {
        this(kind, column, argType, arg, floating, resultType, text, null);
    }

    /** The number of longs of this call's accumulator. */
    public int width() {
        return decimal == null ? 2 : 4;
    }

    /** Adds the argument of {@code row} to the accumulator at {@code slots[at]}, {@code slots[at + 1]}. */
    void add(Row row, long[] slots, int at) {
        if (kind == Kind.COUNT_STAR) {
            slots[at + 1]++;
            return;
        }
        if (kind == Kind.COUNT) {
            if (column >= 0 ? !row.isNullAt(column) : arg.eval(row) != null) {
                slots[at + 1]++;
            }
            return;
        }
        if (decimal != null) {
            addDecimal(row, slots, at);
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

    private void addDecimal(Row row, long[] slots, int at) {
        BigDecimal d;
        if (column >= 0) {
            if (row.isNullAt(column)) {
                return;
            }
            d = row.getDecimal(column);
        } else {
            Object o = arg.eval(row);
            if (o == null) {
                return;
            }
            d = Values.toDecimal(o);
        }
        BigInteger u = (d.scale() == decimal.argScale ? d : d.setScale(decimal.argScale, RoundingMode.HALF_UP)).unscaledValue();
        accumulateDecimal(slots, at, u.shiftRight(64).longValue(), u.longValue(), 1, 0);
    }

    /** Folds a value {@code (hi, lo)} seen {@code count} times (its overflow flag {@code overflow}) into the accumulator at {@code at}. */
    private void accumulateDecimal(long[] slots, int at, long hi, long lo, long count, long overflow) {
        long seen = slots[at + 2];
        switch (kind) {
            case SUM, AVG -> {
                long sumLo = slots[at + 1] + lo;
                long sumHi = slots[at] + hi + (Long.compareUnsigned(sumLo, lo) < 0 ? 1 : 0);
                if ((slots[at] ^ sumHi) < 0 && (hi ^ sumHi) < 0) { // both operands of one sign, the sum of the other
                    overflow = 1;
                }
                slots[at] = sumHi;
                slots[at + 1] = sumLo;
            }
            case MIN, MAX -> {
                int c = seen == 0 ? 0 : Long.compare(hi, slots[at]) != 0 ? Long.compare(hi, slots[at]) : Long.compareUnsigned(lo, slots[at + 1]);
                if (seen == 0 || (kind == Kind.MIN ? c < 0 : c > 0)) {
                    slots[at] = hi;
                    slots[at + 1] = lo;
                }
            }
            default -> throw new IllegalStateException(kind.toString());
        }
        slots[at + 2] = seen + count;
        slots[at + 3] |= overflow;
    }

    private Object decimalResult(long[] slots, int at) {
        long count = slots[at + 2];
        if (count == 0 || slots[at + 3] != 0) {
            return null; // no rows, or a sum beyond 128 bits: null, as Flink gives on overflow
        }
        BigInteger u = BigInteger.valueOf(slots[at]).shiftLeft(64).add(BigInteger.valueOf(slots[at + 1]).and(LOW_64));
        BigDecimal v = new BigDecimal(u, decimal.argScale);
        if (kind == Kind.AVG) {
            v = v.divide(BigDecimal.valueOf(count), decimal.resultScale, RoundingMode.HALF_UP);
        }
        return Values.fit(v, decimal.resultPrecision, decimal.resultScale);
    }

    /** Merges the accumulator at {@code from[at]} into {@code into[at]}. */
    void merge(long[] into, long[] from, int at) {
        if (decimal != null) {
            if (from[at + 2] != 0 || from[at + 3] != 0) {
                accumulateDecimal(into, at, from[at], from[at + 1], from[at + 2], from[at + 3]);
            }
            return;
        }
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
        if (decimal != null) {
            return decimalResult(slots, at);
        }
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
