package io.millrace.api.row;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Builds {@link Row}s of one {@link RowType}, field by field, without boxing. Every field must be set (or, if
 * nullable, set to null) before {@link #build}; a builder can be reused: {@code build} copies the fields, and what
 * was set stays set for the next row. Setters fail naming the field when the value does not fit its type. Not
 * thread-safe.
 */
public final class RowBuilder {
    private final RowType type;
    private final long[] numbers;
    private final Object[] objects;
    private final long[] nulls;
    private final long[] set;

    RowBuilder(RowType type) {
        this.type = type;
        this.numbers = new long[type.numberSlots()];
        this.objects = new Object[type.objectSlots()];
        int words = (type.size() + 63) >>> 6;
        this.nulls = new long[words];
        this.set = new long[words];
    }

    public RowType type() {
        return type;
    }

    public RowBuilder setBoolean(int i, boolean v) {
        return number(i, FieldType.BOOLEAN, v ? 1 : 0);
    }

    /** An {@link FieldType#INT}, {@link FieldType#DATE} or {@link FieldType#TIME} field. */
    public RowBuilder setInt(int i, int v) {
        FieldType t = type.type(i);
        return number(i, t == FieldType.DATE || t == FieldType.TIME ? t : FieldType.INT, v);
    }

    /** A {@link FieldType#DATE} field, in days since 1970-01-01. */
    public RowBuilder setDate(int i, int epochDay) {
        return number(i, FieldType.DATE, epochDay);
    }

    /** A {@link FieldType#TIME} field, in milliseconds since midnight (0 to 86 399 999). */
    public RowBuilder setTime(int i, int millisOfDay) {
        if (millisOfDay < 0 || millisOfDay >= 86_400_000) {
            throw new IllegalArgumentException("field '" + type.name(i) + "' (" + i + "): a TIME is 0 to 86399999 ms since midnight, not " + millisOfDay);
        }
        return number(i, FieldType.TIME, millisOfDay);
    }

    /** A {@link FieldType#BIGINT} or {@link FieldType#TIMESTAMP} field. */
    public RowBuilder setLong(int i, long v) {
        FieldType t = type.type(i);
        return number(i, t == FieldType.TIMESTAMP ? t : FieldType.BIGINT, v);
    }

    public RowBuilder setFloat(int i, float v) {
        return number(i, FieldType.FLOAT, Float.floatToIntBits(v));
    }

    public RowBuilder setDouble(int i, double v) {
        return number(i, FieldType.DOUBLE, Double.doubleToLongBits(v));
    }

    /** A {@link FieldType#TIMESTAMP} field, in milliseconds since the epoch. */
    public RowBuilder setTimestamp(int i, long epochMillis) {
        return number(i, FieldType.TIMESTAMP, epochMillis);
    }

    /** A {@link FieldType#STRING} field; null only if the field is nullable. */
    public RowBuilder setString(int i, String v) {
        check(i, FieldType.STRING);
        if (v == null) {
            return setNull(i);
        }
        objects[type.slot(i)] = v;
        return mark(i, false);
    }

    /**
     * A {@link FieldType#ROW} field: a row of the field's {@link RowType#rowType(int) row type} (its kind is not part of
     * the field), or null only if the field is nullable. Fails naming the field when the row has another type.
     */
    public RowBuilder setRow(int i, Row v) {
        check(i, FieldType.ROW);
        if (v == null) {
            return setNull(i);
        }
        if (!v.type().equals(type.rowType(i))) {
            throw new IllegalArgumentException("field '" + type.name(i) + "' (" + i + ") holds rows of " + type.rowType(i) + ", not of " + v.type());
        }
        objects[type.slot(i)] = v;
        return mark(i, false);
    }

    /**
     * A {@link FieldType#DECIMAL} field, rounded half-up to the field's scale (SQL's CAST), or null only if the field
     * is nullable. Fails naming the field when the value has more digits before the point than the precision allows.
     */
    public RowBuilder setDecimal(int i, BigDecimal v) {
        check(i, FieldType.DECIMAL);
        if (v == null) {
            return setNull(i);
        }
        BigDecimal scaled = v.scale() == type.scale(i) ? v : v.setScale(type.scale(i), RoundingMode.HALF_UP);
        if (scaled.precision() > type.precision(i)) {
            throw new IllegalArgumentException("field '" + type.name(i) + "' (" + i + ") is " + type.typeName(i) + " and cannot hold "
                    + v.toPlainString() + " (more than " + (type.precision(i) - type.scale(i)) + " digits before the point)");
        }
        objects[type.slot(i)] = scaled;
        return mark(i, false);
    }

    /** Sets a nullable field to null; fails naming the field if it is not nullable. */
    public RowBuilder setNull(int i) {
        if (!type.isNullable(i)) {
            throw new IllegalArgumentException("field '" + type.name(i) + "' of " + type + " is NOT NULL and cannot be set to null");
        }
        if (type.type(i).isPrimitive()) {
            numbers[type.slot(i)] = 0;
        } else {
            objects[type.slot(i)] = null;
        }
        return mark(i, true);
    }

    /** Field {@code i} from its boxed value ({@link FieldType#javaType()}) or null. */
    public RowBuilder set(int i, Object value) {
        if (value == null) {
            return setNull(i);
        }
        FieldType t = type.type(i);
        if (!t.javaType().isInstance(value)) {
            throw new IllegalArgumentException("field '" + type.name(i) + "' of " + type + " is " + t + " and takes a "
                    + t.javaType().getSimpleName() + ", not the " + value.getClass().getName() + " " + value);
        }
        return switch (t) {
            case BOOLEAN -> setBoolean(i, (Boolean) value);
            case INT, DATE -> setInt(i, (Integer) value);
            case TIME -> setTime(i, (Integer) value);
            case BIGINT, TIMESTAMP -> setLong(i, (Long) value);
            case FLOAT -> setFloat(i, (Float) value);
            case DOUBLE -> setDouble(i, (Double) value);
            case STRING -> setString(i, (String) value);
            case ROW -> setRow(i, (Row) value);
            case DECIMAL -> setDecimal(i, (BigDecimal) value);
        };
    }

    /** Field {@code name} from its boxed value or null, as {@link #set(int, Object)}. */
    public RowBuilder set(String name, Object value) {
        return set(type.index(name), value);
    }

    /** An {@link RowKind#INSERT} row of the fields set so far. */
    public Row build() {
        return build(RowKind.INSERT);
    }

    /** A row of {@code kind} of the fields set so far; fails naming the first field not set. */
    public Row build(RowKind kind) {
        boolean anyNull = false;
        for (int w = 0; w < set.length; w++) {
            long expected = w == set.length - 1 && (type.size() & 63) != 0 ? (1L << (type.size() & 63)) - 1 : -1L;
            if (set[w] != expected) {
                int missing = w * 64 + Long.numberOfTrailingZeros(~set[w]);
                throw new IllegalStateException("field '" + type.name(missing) + "' (" + missing + ") of " + type + " was not set");
            }
            anyNull |= nulls[w] != 0;
        }
        return new Row(type, kind, numbers.clone(), objects.clone(), anyNull ? nulls.clone() : null);
    }

    private RowBuilder number(int i, FieldType expected, long v) {
        check(i, expected);
        numbers[type.slot(i)] = v;
        return mark(i, false);
    }

    private void check(int i, FieldType expected) {
        FieldType actual = type.type(i);
        if (actual != expected) {
            throw new IllegalArgumentException("field '" + type.name(i) + "' (" + i + ") of " + type + " is " + type.typeName(i) + ", not " + expected);
        }
    }

    private RowBuilder mark(int i, boolean isNull) {
        long bit = 1L << i;
        set[i >>> 6] |= bit;
        nulls[i >>> 6] = isNull ? nulls[i >>> 6] | bit : nulls[i >>> 6] & ~bit;
        return this;
    }
}
