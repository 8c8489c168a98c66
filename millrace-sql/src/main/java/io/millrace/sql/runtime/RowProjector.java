package io.millrace.sql.runtime;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowBuilder;
import io.millrace.api.row.RowType;

/**
 * Builds an output row from an input row: each output field is either a copy of an input field (read and written
 * with the typed getter and setter of its type, no boxing) or a compiled {@link Expr}. Not thread-safe (it reuses a
 * builder): each subtask works on its own copy.
 */
public final class RowProjector implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final RowType outType;
    /** Per output field, the input field it copies, or -1 when {@code exprs[i]} computes it. */
    private final int[] copies;
    private final Expr[] exprs;
    private transient RowBuilder builder;

    public RowProjector(RowType outType, int[] copies, Expr[] exprs) {
        this.outType = outType;
        this.copies = copies;
        this.exprs = exprs;
    }

    public RowType outType() {
        return outType;
    }

    public Row project(Row in) {
        RowBuilder b = builder;
        if (b == null) {
            b = builder = Row.builder(outType);
        }
        for (int i = 0; i < copies.length; i++) {
            int from = copies[i];
            if (from >= 0) {
                copy(in, from, b, i, outType);
            } else {
                set(b, i, exprs[i].eval(in), outType);
            }
        }
        return b.build();
    }

    static void copy(Row in, int from, RowBuilder b, int to, RowType outType) {
        if (in.isNullAt(from)) {
            b.setNull(to);
            return;
        }
        switch (outType.type(to)) {
            case BOOLEAN -> b.setBoolean(to, in.getBoolean(from));
            case INT, DATE, TIME -> b.setInt(to, in.getInt(from));
            case BIGINT -> b.setLong(to, in.getLong(from));
            case TIMESTAMP -> b.setTimestamp(to, in.getLong(from));
            case FLOAT -> b.setFloat(to, in.getFloat(from));
            case DOUBLE -> b.setDouble(to, in.getDouble(from));
            case STRING -> b.setString(to, in.getString(from));
            case DECIMAL -> setDecimal(b, to, in.getDecimal(from), outType);
            case ROW -> b.setRow(to, Values.conform(in.getRow(from), outType.rowType(to)));
        }
    }

    /** A decimal rounded to the field's scale; null (Flink's overflow) if it has too many digits for a nullable field. */
    private static void setDecimal(RowBuilder b, int i, java.math.BigDecimal v, RowType type) {
        java.math.BigDecimal d = Values.fit(v, type.precision(i), type.scale(i));
        if (d == null && !type.isNullable(i)) {
            throw new ArithmeticException("the value " + v.toPlainString() + " does not fit column '" + type.name(i) + "' (" + type.typeName(i) + ")");
        }
        b.setDecimal(i, d);
    }

    /**
     * Sets a computed value of field {@code i} of {@code outType}, converting numbers to the field's type (an INT
     * expression into a DECIMAL field), decimals to its scale, and nested rows to its row type.
     */
    static void set(RowBuilder b, int i, Object v, RowType outType) {
        FieldType type = outType.type(i);
        if (v == null) {
            b.setNull(i);
        } else if (type == FieldType.DECIMAL) {
            setDecimal(b, i, Values.toDecimal(v), outType);
        } else if (type == FieldType.ROW) {
            b.setRow(i, Values.conform((Row) v, outType.rowType(i)));
        } else if (v.getClass() == type.javaType()) {
            b.set(i, v);
        } else {
            b.set(i, Values.cast(v, type));
        }
    }
}
