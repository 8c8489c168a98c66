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
                copy(in, from, b, i, outType.type(i));
            } else {
                set(b, i, exprs[i].eval(in), outType.type(i));
            }
        }
        return b.build();
    }

    static void copy(Row in, int from, RowBuilder b, int to, FieldType type) {
        if (in.isNullAt(from)) {
            b.setNull(to);
            return;
        }
        switch (type) {
            case BOOLEAN -> b.setBoolean(to, in.getBoolean(from));
            case INT, DATE, TIME -> b.setInt(to, in.getInt(from));
            case BIGINT -> b.setLong(to, in.getLong(from));
            case TIMESTAMP -> b.setTimestamp(to, in.getLong(from));
            case FLOAT -> b.setFloat(to, in.getFloat(from));
            case DOUBLE -> b.setDouble(to, in.getDouble(from));
            case STRING -> b.setString(to, in.getString(from));
        }
    }

    /** Sets a computed value, converting numbers to the field's type (a DECIMAL expression into a DOUBLE field). */
    static void set(RowBuilder b, int i, Object v, FieldType type) {
        if (v == null) {
            b.setNull(i);
        } else if (v.getClass() == type.javaType()) {
            b.set(i, v);
        } else {
            b.set(i, Values.cast(v, type));
        }
    }
}
