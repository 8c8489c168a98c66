package io.millrace.api.row;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The schema of a {@link Row}: its fields in order, each with a name, a {@link FieldType} and whether it may be
 * null. Immutable; build one with {@link #builder()} and share it among all rows of a stream. Field names are
 * case-sensitive and unique.
 *
 * <p>A {@link FieldType#ROW} field has a row type of its own (rows nest), a {@link FieldType#DECIMAL} field a
 * precision and a scale.
 *
 * <p>Two row types are equal when they have the same fields in the same order: names, types (with their nested
 * row types, precisions and scales) and nullability.
 */
public final class RowType implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String[] names;
    private final FieldType[] types;
    private final boolean[] nullable;
    /** Per field, the nested row type of a {@link FieldType#ROW} field, else null. */
    private final RowType[] rowTypes;
    /** Per field, the precision and scale of a {@link FieldType#DECIMAL} field, else 0. */
    private final int[] precisions;
    private final int[] scales;
    /** Per field, its index in a row's numbers (primitive types) or in its objects (strings, rows, decimals). */
    private final int[] slots;
    private final int numberSlots;
    private final int objectSlots;
    private final Map<String, Integer> indexes;

    private RowType(Builder b) {
        int n = b.names.size();
        this.names = b.names.toArray(new String[0]);
        this.types = b.types.toArray(new FieldType[0]);
        this.rowTypes = b.rowTypes.toArray(new RowType[0]);
        this.nullable = new boolean[n];
        this.precisions = new int[n];
        this.scales = new int[n];
        this.slots = new int[n];
        this.indexes = new HashMap<>(n * 2);
        int numbers = 0;
        int objects = 0;
        for (int i = 0; i < n; i++) {
            this.nullable[i] = b.nullable.get(i);
            this.precisions[i] = b.precisions.get(i);
            this.scales[i] = b.scales.get(i);
            slots[i] = this.types[i].isPrimitive() ? numbers++ : objects++;
            indexes.put(this.names[i], i);
        }
        this.numberSlots = numbers;
        this.objectSlots = objects;
    }

    /** A builder that adds fields in order. */
    public static Builder builder() {
        return new Builder();
    }

    /** The number of fields. */
    public int size() {
        return names.length;
    }

    /** The name of field {@code i} (0-based). */
    public String name(int i) {
        return names[i];
    }

    /** The type of field {@code i}. */
    public FieldType type(int i) {
        return types[i];
    }

    /** Whether field {@code i} may be null. */
    public boolean isNullable(int i) {
        return nullable[i];
    }

    /** The row type of {@link FieldType#ROW} field {@code i}; fails naming the field if it is of another type. */
    public RowType rowType(int i) {
        if (types[i] != FieldType.ROW) {
            throw new IllegalArgumentException("field '" + names[i] + "' (" + i + ") of " + this + " is " + typeName(i) + ", not a ROW");
        }
        return rowTypes[i];
    }

    /** The precision (digits in all) of {@link FieldType#DECIMAL} field {@code i}; fails naming the field if it is of another type. */
    public int precision(int i) {
        checkDecimal(i);
        return precisions[i];
    }

    /** The scale (digits after the point) of {@link FieldType#DECIMAL} field {@code i}; fails naming the field if it is of another type. */
    public int scale(int i) {
        checkDecimal(i);
        return scales[i];
    }

    private void checkDecimal(int i) {
        if (types[i] != FieldType.DECIMAL) {
            throw new IllegalArgumentException("field '" + names[i] + "' (" + i + ") of " + this + " is " + typeName(i) + ", not a DECIMAL");
        }
    }

    /** The type of field {@code i} as {@link #toString()} prints it: {@code DOUBLE}, {@code DECIMAL(10, 2)}, {@code ROW<a INT>}. */
    public String typeName(int i) {
        return switch (types[i]) {
            case ROW -> rowTypes[i].toString();
            case DECIMAL -> "DECIMAL(" + precisions[i] + ", " + scales[i] + ")";
            default -> types[i].name();
        };
    }

    /** The field names in order. */
    public List<String> names() {
        return List.of(names);
    }

    /** The position of the field named {@code name}, or -1 if there is none. */
    public int indexOf(String name) {
        Integer i = indexes.get(name);
        return i == null ? -1 : i;
    }

    /**
     * The position of the field named {@code name}; fails naming the field and the fields there are. Look a name up
     * once, outside the per-record path, and read by position.
     */
    public int index(String name) {
        Integer i = indexes.get(name);
        if (i == null) {
            throw new IllegalArgumentException("no field '" + name + "' in " + this);
        }
        return i;
    }

    int slot(int i) {
        return slots[i];
    }

    int numberSlots() {
        return numberSlots;
    }

    int objectSlots() {
        return objectSlots;
    }

    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof RowType t
                && Arrays.equals(names, t.names) && Arrays.equals(types, t.types) && Arrays.equals(nullable, t.nullable)
                && Arrays.equals(rowTypes, t.rowTypes) && Arrays.equals(precisions, t.precisions) && Arrays.equals(scales, t.scales);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(names) * 31 + Arrays.hashCode(nullable);
    }

    /** Like {@code ROW<machine STRING NOT NULL, temperature DOUBLE, price DECIMAL(10, 2), at ROW<x INT NOT NULL>>}. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("ROW<");
        for (int i = 0; i < names.length; i++) {
            s.append(i == 0 ? "" : ", ").append(names[i]).append(' ').append(typeName(i)).append(nullable[i] ? "" : " NOT NULL");
        }
        return s.append('>').toString();
    }

    /** Adds fields in order; {@link #build()} checks that names are unique. */
    public static final class Builder {
        /** The largest precision of a DECIMAL, as in SQL engines (Flink's too). */
        public static final int MAX_DECIMAL_PRECISION = 38;

        private final List<String> names = new ArrayList<>();
        private final List<FieldType> types = new ArrayList<>();
        private final List<Boolean> nullable = new ArrayList<>();
        private final List<RowType> rowTypes = new ArrayList<>();
        private final List<Integer> precisions = new ArrayList<>();
        private final List<Integer> scales = new ArrayList<>();

        private Builder() {}

        /**
         * Adds a field that is never null. A {@link FieldType#ROW} field needs its row type ({@link #field(String,
         * RowType)}) and a {@link FieldType#DECIMAL} its precision and scale ({@link #decimalField}).
         */
        public Builder field(String name, FieldType type) {
            return add(name, type, false, null, 0, 0);
        }

        /** Adds a field that may be null; see {@link #field(String, FieldType)}. */
        public Builder nullableField(String name, FieldType type) {
            return add(name, type, true, null, 0, 0);
        }

        /** Adds a {@link FieldType#ROW} field holding rows of {@code rowType}, never null. */
        public Builder field(String name, RowType rowType) {
            return add(name, FieldType.ROW, false, rowType, 0, 0);
        }

        /** Adds a {@link FieldType#ROW} field holding rows of {@code rowType}, or null. */
        public Builder nullableField(String name, RowType rowType) {
            return add(name, FieldType.ROW, true, rowType, 0, 0);
        }

        /**
         * Adds a {@link FieldType#DECIMAL} field of {@code precision} digits (1 to 38), {@code scale} of them (0 to
         * precision) after the point; {@code mayBeNull} says whether it may be null.
         */
        public Builder decimalField(String name, int precision, int scale, boolean mayBeNull) {
            if (precision < 1 || precision > MAX_DECIMAL_PRECISION || scale < 0 || scale > precision) {
                throw new IllegalArgumentException("field '" + name + "': DECIMAL(" + precision + ", " + scale
                        + ") needs a precision of 1 to " + MAX_DECIMAL_PRECISION + " and a scale of 0 to the precision");
            }
            return add(name, FieldType.DECIMAL, mayBeNull, null, precision, scale);
        }

        private Builder add(String name, FieldType type, boolean mayBeNull, RowType rowType, int precision, int scale) {
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("field " + names.size() + " of a row type needs a non-empty name");
            }
            if (type == null) {
                throw new IllegalArgumentException("field '" + name + "' of a row type needs a type");
            }
            if (type == FieldType.ROW && rowType == null) {
                throw new IllegalArgumentException("field '" + name + "' is a ROW: declare it with field(name, rowType) or nullableField(name, rowType)");
            }
            if (type == FieldType.DECIMAL && precision == 0) {
                throw new IllegalArgumentException("field '" + name + "' is a DECIMAL: declare it with decimalField(name, precision, scale, nullable)");
            }
            if (names.contains(name)) {
                throw new IllegalArgumentException("a row type has two fields named '" + name + "': field names must be unique");
            }
            names.add(name);
            types.add(type);
            nullable.add(mayBeNull);
            rowTypes.add(rowType);
            precisions.add(precision);
            scales.add(scale);
            return this;
        }

        public RowType build() {
            return new RowType(this);
        }
    }
}
