package io.millrace.connector.file;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One CSV record: its values by column name or position. Immutable. The rows of one file share their
 * {@link Columns}. Values are the text as written (unquoted); an empty field is the empty string. Typed
 * getters parse on demand: {@link #getDouble} and {@link #getLong} require a value and throw, naming the
 * column, on an empty field or text that does not parse, which in a {@link RowMapper} makes the line a bad
 * record; {@link #getDoubleOrNull} and {@link #getLongOrNull} read an optional column (null when empty).
 */
public final class CsvRow implements java.io.Serializable {
    private final Columns columns;
    private final String[] values;

    CsvRow(Columns columns, String[] values) {
        this.columns = columns;
        this.values = values;
    }

    /** The value of a column; throws IllegalArgumentException naming the columns if there is no such column. */
    public String get(String column) {
        return values[columns.indexOf(column)];
    }

    /** The value at a 0-based position. */
    public String get(int index) {
        return values[index];
    }

    /**
     * The value of a required numeric column. Throws {@link NumberFormatException} naming the column when it is
     * empty or not a number, which in a {@link RowMapper} makes the line a bad record with that reason.
     */
    public double getDouble(String column) {
        String text = required(column, "a double");
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw notA(column, text, "a double");
        }
    }

    /** The value of an optional numeric column: null when it is empty; text that is not a number throws as {@link #getDouble}. */
    public Double getDoubleOrNull(String column) {
        return get(column).isEmpty() ? null : getDouble(column);
    }

    /** The value of a required whole-number column; throws like {@link #getDouble}. */
    public long getLong(String column) {
        String text = required(column, "a long");
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw notA(column, text, "a long");
        }
    }

    /** The value of an optional whole-number column: null when it is empty. */
    public Long getLongOrNull(String column) {
        return get(column).isEmpty() ? null : getLong(column);
    }

    private String required(String column, String what) {
        String text = get(column);
        if (text.isEmpty()) {
            throw new BadColumnValue("column '" + column + "' is empty, expected " + what
                    + " (read it with get" + (what.equals("a long") ? "Long" : "Double") + "OrNull to make it optional)");
        }
        return text;
    }

    private static BadColumnValue notA(String column, String text, String what) {
        return new BadColumnValue("column '" + column + "': '" + text + "' is not " + what);
    }

    /** A column's value that a typed getter cannot return; the message names the column and says why. */
    static final class BadColumnValue extends NumberFormatException {
        BadColumnValue(String message) {
            super(message);
        }
    }

    public int size() {
        return values.length;
    }

    public List<String> columns() {
        return columns.names();
    }

    public List<String> values() {
        return Collections.unmodifiableList(Arrays.asList(values));
    }

    /** A new map from column name to value, in column order. */
    public Map<String, String> asMap() {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            map.put(columns.name(i), values[i]);
        }
        return map;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CsvRow other && columns.names().equals(other.columns.names())
                && Arrays.equals(values, other.values);
    }

    @Override
    public int hashCode() {
        return 31 * columns.names().hashCode() + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return asMap().toString();
    }

    /** The column names of a file, with an index by name. Immutable. */
    public static final class Columns implements java.io.Serializable {
        private final List<String> names;
        private final Map<String, Integer> index = new HashMap<>();

        /** Throws IllegalArgumentException on an empty list or a duplicate name. */
        public Columns(List<String> names) {
            if (names.isEmpty()) {
                throw new IllegalArgumentException("CSV columns must not be empty");
            }
            this.names = List.copyOf(names);
            for (int i = 0; i < names.size(); i++) {
                if (index.put(names.get(i), i) != null) {
                    throw new IllegalArgumentException("duplicate CSV column '" + names.get(i) + "' in " + names);
                }
            }
        }

        public List<String> names() {
            return names;
        }

        String name(int i) {
            return names.get(i);
        }

        int size() {
            return names.size();
        }

        int indexOf(String column) {
            Integer i = index.get(column);
            if (i == null) {
                throw new IllegalArgumentException("no CSV column '" + column + "'; the columns are " + names);
            }
            return i;
        }
    }
}
