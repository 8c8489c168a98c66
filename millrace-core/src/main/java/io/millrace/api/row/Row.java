package io.millrace.api.row;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * A record of named, typed fields described by a {@link RowType}, with the {@link RowKind} it has in a changelog.
 * Immutable: build one with {@link #of} or {@link #builder}; {@link #withKind} gives the same fields with another
 * kind, sharing them.
 *
 * <p><b>Access.</b> Fields are read by position ({@code getDouble(1)}) without boxing: numbers, booleans and
 * timestamps are stored in a {@code long[]}; strings, nested rows and decimals in an {@code Object[]}. Reading a field with the getter of
 * another type fails naming the field and its type; reading a null field with a primitive getter fails too (check
 * {@link #isNullAt} first). By-name getters look the name up in the row type: on a per-record path, look the
 * position up once with {@link RowType#index} instead.
 *
 * <p><b>Equality and hash.</b> Two rows are equal when their row types are equal and their fields hold equal
 * values; the {@link RowKind} is <em>not</em> part of equality, so a retraction ({@code -U}, {@code -D}) equals the
 * row it retracts. Doubles and floats compare like {@link Double#equals} (NaN equals NaN, 0.0 differs from -0.0).
 * {@link #hashCode()} is defined over the field values only and is the same in every JVM and every version: it is
 * {@code java.util.List.hashCode()} of the fields' values boxed ({@code h = 31 * h + hash(value)} from 1, with 0
 * for null, and each value's hash that of its boxed Java type: a nested row's is this hash, a decimal's
 * {@link java.math.BigDecimal#hashCode()} at the field's scale). Rows are therefore valid keys ({@code keyBy}).
 *
 * <p>{@link #toString()} prints the kind and the values, like {@code +I[m03, 21.5]}; timestamps print as ISO-8601
 * instants, decimals as plain numbers ({@code 12.50}), nested rows as their values in brackets without a kind
 * ({@code +I[7, [m03, 21.5]]}).
 */
public final class Row implements Serializable {
    private static final long serialVersionUID = 1L;

    private final RowType type;
    private final RowKind kind;
    /** Primitive fields by their slot; doubles and floats as their canonical bits ({@link Double#doubleToLongBits}); 0 when null. */
    private final long[] numbers;
    /** String, row and decimal fields by their slot. */
    private final Object[] objects;
    /** A bit per field, set when null; null when no field is. */
    private final long[] nulls;

    Row(RowType type, RowKind kind, long[] numbers, Object[] objects, long[] nulls) {
        this.type = type;
        this.kind = kind;
        this.numbers = numbers;
        this.objects = objects;
        this.nulls = nulls;
    }

    /**
     * An {@link RowKind#INSERT} row of {@code values}, one per field in order, each of its field type's
     * {@link FieldType#javaType() Java type} or null. Fails naming the field when a value does not fit.
     */
    public static Row of(RowType type, Object... values) {
        return ofKind(RowKind.INSERT, type, values);
    }

    /** A row of {@code kind} with {@code values}, as {@link #of}. */
    public static Row ofKind(RowKind kind, RowType type, Object... values) {
        Objects.requireNonNull(type, "type");
        if (values.length != type.size()) {
            throw new IllegalArgumentException(values.length + " values for the " + type.size() + " fields of " + type);
        }
        RowBuilder b = new RowBuilder(type);
        for (int i = 0; i < values.length; i++) {
            b.set(i, values[i]);
        }
        return b.build(kind);
    }

    /** A builder of rows of {@code type}, reusable: each {@code build} copies what was set. */
    public static RowBuilder builder(RowType type) {
        return new RowBuilder(Objects.requireNonNull(type, "type"));
    }

    public RowType type() {
        return type;
    }

    public RowKind kind() {
        return kind;
    }

    /** This row's fields with {@code kind}: this row if it has that kind already, else a new row sharing the fields. */
    public Row withKind(RowKind kind) {
        return kind == this.kind ? this : new Row(type, Objects.requireNonNull(kind, "kind"), numbers, objects, nulls);
    }

    /** The number of fields. */
    public int size() {
        return type.size();
    }

    public boolean isNullAt(int i) {
        Objects.checkIndex(i, type.size());
        return nulls != null && (nulls[i >>> 6] & (1L << i)) != 0;
    }

    public boolean getBoolean(int i) {
        return number(i, FieldType.BOOLEAN) != 0;
    }

    /** An {@link FieldType#INT}, {@link FieldType#DATE} or {@link FieldType#TIME} field. */
    public int getInt(int i) {
        FieldType t = type.type(i);
        return (int) number(i, t == FieldType.DATE || t == FieldType.TIME ? t : FieldType.INT);
    }

    /** A {@link FieldType#DATE} field: days since 1970-01-01. */
    public int getDate(int i) {
        return (int) number(i, FieldType.DATE);
    }

    /** A {@link FieldType#TIME} field: milliseconds since midnight. */
    public int getTime(int i) {
        return (int) number(i, FieldType.TIME);
    }

    /** A {@link FieldType#BIGINT} or {@link FieldType#TIMESTAMP} field. */
    public long getLong(int i) {
        FieldType t = type.type(i);
        return number(i, t == FieldType.TIMESTAMP ? t : FieldType.BIGINT);
    }

    public float getFloat(int i) {
        return Float.intBitsToFloat((int) number(i, FieldType.FLOAT));
    }

    public double getDouble(int i) {
        return Double.longBitsToDouble(number(i, FieldType.DOUBLE));
    }

    /** A {@link FieldType#TIMESTAMP} field: milliseconds since the epoch. */
    public long getTimestamp(int i) {
        return number(i, FieldType.TIMESTAMP);
    }

    /** A {@link FieldType#STRING} field, null if it is null. */
    public String getString(int i) {
        checkType(i, FieldType.STRING);
        return (String) objects[type.slot(i)];
    }

    /** A {@link FieldType#ROW} field: a row of {@link RowType#rowType(int)}, null if it is null. */
    public Row getRow(int i) {
        checkType(i, FieldType.ROW);
        return (Row) objects[type.slot(i)];
    }

    /** A {@link FieldType#DECIMAL} field, of the field's scale; null if it is null. */
    public BigDecimal getDecimal(int i) {
        checkType(i, FieldType.DECIMAL);
        return (BigDecimal) objects[type.slot(i)];
    }

    /** Field {@code i} boxed ({@link FieldType#javaType()}), or null. */
    public Object getField(int i) {
        if (isNullAt(i)) {
            return null;
        }
        long v = type.type(i).isPrimitive() ? numbers[type.slot(i)] : 0;
        return switch (type.type(i)) {
            case BOOLEAN -> v != 0;
            case INT, DATE, TIME -> (int) v;
            case BIGINT, TIMESTAMP -> v;
            case FLOAT -> Float.intBitsToFloat((int) v);
            case DOUBLE -> Double.longBitsToDouble(v);
            case STRING, ROW, DECIMAL -> objects[type.slot(i)];
        };
    }

    public boolean getBoolean(String name) {
        return getBoolean(type.index(name));
    }

    public int getInt(String name) {
        return getInt(type.index(name));
    }

    public long getLong(String name) {
        return getLong(type.index(name));
    }

    public float getFloat(String name) {
        return getFloat(type.index(name));
    }

    public double getDouble(String name) {
        return getDouble(type.index(name));
    }

    public long getTimestamp(String name) {
        return getTimestamp(type.index(name));
    }

    public String getString(String name) {
        return getString(type.index(name));
    }

    public Row getRow(String name) {
        return getRow(type.index(name));
    }

    public BigDecimal getDecimal(String name) {
        return getDecimal(type.index(name));
    }

    public Object getField(String name) {
        return getField(type.index(name));
    }

    private long number(int i, FieldType expected) {
        checkType(i, expected);
        if (nulls != null && (nulls[i >>> 6] & (1L << i)) != 0) {
            throw new NullPointerException("field '" + type.name(i) + "' (" + i + ") of " + this + " is null: check isNullAt before reading it as "
                    + expected);
        }
        return numbers[type.slot(i)];
    }

    private void checkType(int i, FieldType expected) {
        FieldType actual = type.type(i);
        if (actual != expected) {
            throw new IllegalArgumentException("field '" + type.name(i) + "' (" + i + ") of " + type + " is " + actual + ", not " + expected
                    + ": read it with the getter of its type");
        }
    }

    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof Row r && type.equals(r.type) && Arrays.equals(numbers, r.numbers)
                && Arrays.equals(objects, r.objects) && Arrays.equals(nulls, r.nulls);
    }

    /** The hash defined in the class comment: stable across JVMs and versions, independent of the kind. */
    @Override
    public int hashCode() {
        int h = 1;
        for (int i = 0; i < type.size(); i++) {
            h = 31 * h + fieldHash(i);
        }
        return h;
    }

    private int fieldHash(int i) {
        if (nulls != null && (nulls[i >>> 6] & (1L << i)) != 0) {
            return 0;
        }
        FieldType t = type.type(i);
        if (!t.isPrimitive()) {
            return objects[type.slot(i)].hashCode(); // String, Row and BigDecimal hashes, all defined by their classes
        }
        long v = numbers[type.slot(i)];
        return switch (t) {
            case BOOLEAN -> Boolean.hashCode(v != 0);
            case INT, FLOAT, DATE, TIME -> (int) v; // Integer.hashCode, and Float.hashCode of the canonical bits
            default -> Long.hashCode(v); // Long.hashCode, and Double.hashCode of the canonical bits
        };
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(kind.shortString());
        appendFields(s);
        return s.toString();
    }

    private void appendFields(StringBuilder s) {
        s.append('[');
        for (int i = 0; i < type.size(); i++) {
            if (i > 0) {
                s.append(", ");
            }
            Object v = getField(i);
            if (v == null) {
                s.append(v);
                continue;
            }
            switch (type.type(i)) {
                case TIMESTAMP -> s.append(Instant.ofEpochMilli((Long) v));
                case DATE -> s.append(java.time.LocalDate.ofEpochDay((Integer) v));
                case TIME -> s.append(java.time.LocalTime.ofNanoOfDay((Integer) v * 1_000_000L));
                case DECIMAL -> s.append(((BigDecimal) v).toPlainString());
                case ROW -> ((Row) v).appendFields(s);
                default -> s.append(v);
            }
        }
        s.append(']');
    }
}
