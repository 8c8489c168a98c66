package io.millrace.connector.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * The SQL a sink runs against its table, with every identifier quoted: an insert, an upsert
 * ({@code INSERT ... ON CONFLICT (key) DO UPDATE SET} the other columns, or {@code DO NOTHING} when every column is
 * part of the key), a delete by key, and the dead-letter insert.
 */
final class TableStatements {
    private TableStatements() {}

    /** {@code "name"}, or {@code "schema"."name"} for {@code schema.name}. */
    static String table(String name) {
        StringJoiner j = new StringJoiner(".");
        for (String part : name.split("\\.", -1)) {
            j.add(quote(part));
        }
        return j.toString();
    }

    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    static String insert(String table, List<String> columns) {
        StringJoiner names = new StringJoiner(", ", "(", ")");
        StringJoiner marks = new StringJoiner(", ", "(", ")");
        for (String c : columns) {
            names.add(quote(c));
            marks.add("?");
        }
        return "INSERT INTO " + table(table) + " " + names + " VALUES " + marks;
    }

    static String upsert(String table, List<String> columns, List<String> key) {
        StringJoiner conflict = new StringJoiner(", ", "(", ")");
        key.forEach(k -> conflict.add(quote(k)));
        List<String> rest = new ArrayList<>(columns);
        rest.removeAll(key);
        if (rest.isEmpty()) {
            return insert(table, columns) + " ON CONFLICT " + conflict + " DO NOTHING";
        }
        StringJoiner set = new StringJoiner(", ");
        rest.forEach(c -> set.add(quote(c) + " = EXCLUDED." + quote(c)));
        return insert(table, columns) + " ON CONFLICT " + conflict + " DO UPDATE SET " + set;
    }

    static String delete(String table, List<String> key) {
        StringJoiner where = new StringJoiner(" AND ");
        key.forEach(k -> where.add(quote(k) + " = ?"));
        return "DELETE FROM " + table(table) + " WHERE " + where;
    }

    static String createDeadLetterTable(String table) {
        return "CREATE TABLE IF NOT EXISTS " + table(table) + " (sink text NOT NULL, target_table text NOT NULL, row_text text NOT NULL,"
                + " sql_state text, reason text NOT NULL, failed_at timestamptz NOT NULL DEFAULT now())";
    }

    static String insertDeadLetter(String table) {
        return "INSERT INTO " + table(table) + " (sink, target_table, row_text, sql_state, reason) VALUES (?, ?, ?, ?, ?)";
    }
}
