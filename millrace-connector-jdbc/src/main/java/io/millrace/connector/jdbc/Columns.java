package io.millrace.connector.jdbc;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowKind;
import io.millrace.api.row.RowType;
import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How the values a sink receives become the columns of a table row: the column names in order, how to read each
 * column's value from a record, and the record's {@link RowKind} (what it does to the table). {@link #of(RowType)}
 * maps {@link Row}s field by field, by name; {@link #builder()} maps any Java object column by column.
 *
 * <p>Values are handed to the driver as they are, except the time types: a {@link FieldType#TIMESTAMP} field (and a
 * {@link Instant}) becomes an {@link OffsetDateTime} in UTC (for a {@code timestamptz} column), a
 * {@link FieldType#DATE} a {@link LocalDate}, a {@link FieldType#TIME} a {@link LocalTime}. Strings are sent
 * untyped, so that the server converts them to the column's type.
 */
public final class Columns<T> implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Reads one column's value from a record. */
    @FunctionalInterface
    public interface Getter<T> extends Serializable {
        Object get(T value);
    }

    /** The kind of a record: what it does to the table. */
    @FunctionalInterface
    public interface KindOf<T> extends Serializable {
        RowKind kindOf(T value);
    }

    private final List<String> names;
    private final List<Getter<T>> getters;
    private final KindOf<T> kind;

    private Columns(List<String> names, List<Getter<T>> getters, KindOf<T> kind) {
        this.names = List.copyOf(names);
        this.getters = List.copyOf(getters);
        this.kind = kind;
    }

    /** A column per field of {@code type}, named like the field; a row's kind is {@link Row#kind()}. */
    public static Columns<Row> of(RowType type) {
        Objects.requireNonNull(type, "row type");
        List<String> names = new ArrayList<>();
        List<Getter<Row>> getters = new ArrayList<>();
        for (int i = 0; i < type.size(); i++) {
            names.add(type.name(i));
            getters.add(rowGetter(i, type.type(i)));
        }
        return new Columns<>(names, getters, Row::kind);
    }

    private static Getter<Row> rowGetter(int i, FieldType type) {
        switch (type) {
            case TIMESTAMP:
                return r -> r.isNullAt(i) ? null : OffsetDateTime.ofInstant(Instant.ofEpochMilli(r.getTimestamp(i)), ZoneOffset.UTC);
            case DATE:
                return r -> r.isNullAt(i) ? null : LocalDate.ofEpochDay(r.getDate(i));
            case TIME:
                return r -> r.isNullAt(i) ? null : LocalTime.ofNanoOfDay(r.getTime(i) * 1_000_000L);
            default:
                return r -> r.getField(i);
        }
    }

    /** A mapping of Java objects, column by column; every record is an insert unless {@link Builder#kind} says otherwise. */
    public static <T> Builder<T> builder() {
        return new Builder<>();
    }

    /** The column names in order. */
    public List<String> names() {
        return names;
    }

    int size() {
        return names.size();
    }

    /** The value of column {@code i} of {@code record}, as handed to the driver. */
    Object value(T record, int i) {
        Object v = getters.get(i).get(record);
        return v instanceof Instant instant ? OffsetDateTime.ofInstant(instant, ZoneOffset.UTC) : v;
    }

    RowKind kind(T record) {
        return kind.kindOf(record);
    }

    /** The position of column {@code name}; fails naming the option, the column and the columns there are. */
    int index(String option, String name) {
        int i = names.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("option '" + option + "': no column '" + name + "' among the sink's columns " + names);
        }
        return i;
    }

    /** Adds columns in order. */
    public static final class Builder<T> {
        private final List<String> names = new ArrayList<>();
        private final List<Getter<T>> getters = new ArrayList<>();
        private KindOf<T> kind = v -> RowKind.INSERT;

        private Builder() {}

        /** Adds column {@code name}, whose value {@code getter} reads from a record. */
        public Builder<T> column(String name, Getter<T> getter) {
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("column " + names.size() + " of a mapping needs a non-empty name");
            }
            if (names.contains(name)) {
                throw new IllegalArgumentException("a mapping has two columns named '" + name + "'");
            }
            names.add(name);
            getters.add(Objects.requireNonNull(getter, name));
            return this;
        }

        /** What a record does to the table (default: every record is an insert, {@link RowKind#INSERT}). */
        public Builder<T> kind(KindOf<T> value) {
            this.kind = Objects.requireNonNull(value, "kind");
            return this;
        }

        public Columns<T> build() {
            if (names.isEmpty()) {
                throw new IllegalArgumentException("a mapping needs at least one column");
            }
            return new Columns<>(names, getters, kind);
        }
    }
}
