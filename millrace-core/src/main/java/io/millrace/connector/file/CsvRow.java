package io.millrace.connector.file;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One CSV record: its values by column name or position. Immutable. The rows of one file share their
 * {@link Columns}. Values are the text as written (unquoted); typed getters parse on demand and throw
 * on text that does not parse, which in a {@link RowMapper} makes the line a bad record.
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

    public double getDouble(String column) {
        return Double.parseDouble(get(column));
    }

    public long getLong(String column) {
        return Long.parseLong(get(column));
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
