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
 * <p>Two row types are equal when they have the same fields in the same order: names, types and nullability.
 */
public final class RowType implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String[] names;
    private final FieldType[] types;
    private final boolean[] nullable;
    /** Per field, its index in a row's numbers (primitive types) or in its strings ({@link FieldType#STRING}). */
    private final int[] slots;
    private final int numberSlots;
    private final int stringSlots;
    private final Map<String, Integer> indexes;

    private RowType(List<String> names, List<FieldType> types, List<Boolean> nullable) {
        int n = names.size();
        this.names = names.toArray(new String[0]);
        this.types = types.toArray(new FieldType[0]);
        this.nullable = new boolean[n];
        this.slots = new int[n];
        this.indexes = new HashMap<>(n * 2);
        int numbers = 0;
        int strings = 0;
        for (int i = 0; i < n; i++) {
            this.nullable[i] = nullable.get(i);
            slots[i] = this.types[i].isPrimitive() ? numbers++ : strings++;
            indexes.put(this.names[i], i);
        }
        this.numberSlots = numbers;
        this.stringSlots = strings;
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

    int stringSlots() {
        return stringSlots;
    }

    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof RowType t
                && Arrays.equals(names, t.names) && Arrays.equals(types, t.types) && Arrays.equals(nullable, t.nullable);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(names) * 31 + Arrays.hashCode(nullable);
    }

    /** Like {@code ROW<machine STRING NOT NULL, temperature DOUBLE>}. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("ROW<");
        for (int i = 0; i < names.length; i++) {
            s.append(i == 0 ? "" : ", ").append(names[i]).append(' ').append(types[i]).append(nullable[i] ? "" : " NOT NULL");
        }
        return s.append('>').toString();
    }

    /** Adds fields in order; {@link #build()} checks that names are unique. */
    public static final class Builder {
        private final List<String> names = new ArrayList<>();
        private final List<FieldType> types = new ArrayList<>();
        private final List<Boolean> nullable = new ArrayList<>();

        private Builder() {}

        /** Adds a field that is never null. */
        public Builder field(String name, FieldType type) {
            return add(name, type, false);
        }

        /** Adds a field that may be null. */
        public Builder nullableField(String name, FieldType type) {
            return add(name, type, true);
        }

        private Builder add(String name, FieldType type, boolean mayBeNull) {
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("field " + names.size() + " of a row type needs a non-empty name");
            }
            if (type == null) {
                throw new IllegalArgumentException("field '" + name + "' of a row type needs a type");
            }
            if (names.contains(name)) {
                throw new IllegalArgumentException("a row type has two fields named '" + name + "': field names must be unique");
            }
            names.add(name);
            types.add(type);
            nullable.add(mayBeNull);
            return this;
        }

        public RowType build() {
            return new RowType(names, types, nullable);
        }
    }
}
