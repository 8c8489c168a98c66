package io.millrace.connector.jdbc;

import io.millrace.connector.jdbc.server.PostgresTestServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Reads tables of the test server back. */
final class Tables {
    private Tables() {}

    /** Every row of {@code sql}'s result, its columns joined by '|' ({@code null} for SQL NULL), in the query's order. */
    static List<String> rows(PostgresTestServer server, String sql) {
        try (Connection c = server.connect(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            List<String> rows = new ArrayList<>();
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(i == 1 ? "" : "|").append(r.getString(i));
                }
                rows.add(b.toString());
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    static long count(PostgresTestServer server, String table) {
        return Long.parseLong(rows(server, "SELECT count(*) FROM " + table).get(0));
    }

    /** The global ids of the server's prepared transactions, sorted. */
    static List<String> prepared(PostgresTestServer server) {
        return rows(server, "SELECT gid FROM pg_prepared_xacts ORDER BY gid");
    }
}
