package io.millrace.api.row;

/**
 * The type of a {@link Row}'s field: the logical types a SQL layer maps its columns to. Each names the Java type
 * its values have when read boxed ({@link Row#getField}) and the getter that reads it without boxing.
 *
 * <p>{@link #code()} is the value stored in state and checkpoints; it never changes for a constant, and new types
 * get new codes.
 */
public enum FieldType {
    /** {@code boolean}; {@link Row#getBoolean}. */
    BOOLEAN(Boolean.class, true, 0),
    /** 32-bit signed integer, {@code int}; {@link Row#getInt}. */
    INT(Integer.class, true, 1),
    /** 64-bit signed integer, {@code long}; {@link Row#getLong}. */
    BIGINT(Long.class, true, 2),
    /** 32-bit IEEE 754 floating point, {@code float}; {@link Row#getFloat}. */
    FLOAT(Float.class, true, 3),
    /** 64-bit IEEE 754 floating point, {@code double}; {@link Row#getDouble}. */
    DOUBLE(Double.class, true, 4),
    /** A character string, {@link String}; {@link Row#getString}. */
    STRING(String.class, false, 5),
    /**
     * An instant with millisecond precision (SQL's {@code TIMESTAMP_LTZ(3)}): milliseconds since 1970-01-01T00:00Z as
     * a {@code long}, the same unit as event timestamps; {@link Row#getTimestamp} (or {@link Row#getLong}).
     */
    TIMESTAMP(Long.class, true, 6),
    /** A calendar date (SQL's {@code DATE}): days since 1970-01-01 as an {@code int}; {@link Row#getDate} (or {@link Row#getInt}). */
    DATE(Integer.class, true, 7),
    /** A time of day (SQL's {@code TIME(3)}): milliseconds since midnight as an {@code int}; {@link Row#getTime} (or {@link Row#getInt}). */
    TIME(Integer.class, true, 8),
    /**
     * A nested row (SQL's {@code ROW<...>}): a {@link Row} of the field's own row type, {@link RowType#rowType(int)};
     * {@link Row#getRow}. Declared with {@link RowType.Builder#field(String, RowType)}.
     */
    ROW(Row.class, false, 9),
    /**
     * An exact decimal number (SQL's {@code DECIMAL(p, s)}): a {@link java.math.BigDecimal} of the field's scale with at
     * most its precision in digits, {@link RowType#precision(int)} and {@link RowType#scale(int)}; {@link Row#getDecimal}.
     * Declared with {@link RowType.Builder#decimalField}.
     */
    DECIMAL(java.math.BigDecimal.class, false, 10);

    private static final FieldType[] BY_CODE = values();

    private final Class<?> javaType;
    private final boolean primitive;
    private final byte code;

    FieldType(Class<?> javaType, boolean primitive, int code) {
        this.javaType = javaType;
        this.primitive = primitive;
        this.code = (byte) code;
    }

    /** The class of this type's values read boxed: {@code Long} for {@code BIGINT} and {@code TIMESTAMP}. */
    public Class<?> javaType() {
        return javaType;
    }

    /** True when values are stored as numbers and read without boxing (all but {@link #STRING}, {@link #ROW} and {@link #DECIMAL}). */
    public boolean isPrimitive() {
        return primitive;
    }

    /** The stable code of this type, as stored in state. */
    public byte code() {
        return code;
    }

    /** The type of a stored {@link #code()}; fails naming the code if it is none. */
    public static FieldType ofCode(int code) {
        if (code < 0 || code >= BY_CODE.length || BY_CODE[code].code != code) {
            throw new IllegalArgumentException("no field type has code " + code + " (known: 0 to " + (BY_CODE.length - 1) + ")");
        }
        return BY_CODE[code];
    }
}
