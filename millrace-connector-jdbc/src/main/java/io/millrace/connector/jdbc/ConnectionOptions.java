package io.millrace.connector.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Where and how a sink connects: a {@code jdbc:postgresql://host:port/database} URL, a user, a password and driver
 * properties. Every connection is opened with {@code stringtype=unspecified}, so that the server converts a string to
 * the column's type (a value that does not convert is then a bad row of its own, not a failure of the whole
 * statement). Serializable: it travels with the sink to every subtask.
 */
final class ConnectionOptions implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final String url;
    private final LinkedHashMap<String, String> properties;

    ConnectionOptions(String url, Map<String, String> properties) {
        this.url = Objects.requireNonNull(url, "url");
        this.properties = new LinkedHashMap<>(properties);
    }

    String url() {
        return url;
    }

    /** The driver properties as given (user, password and others). */
    Map<String, String> properties() {
        return java.util.Collections.unmodifiableMap(properties);
    }

    /** Opens a connection with auto-commit as given. */
    Connection open(boolean autoCommit) throws SQLException {
        Properties p = new Properties();
        p.putAll(properties);
        p.putIfAbsent("stringtype", "unspecified");
        p.putIfAbsent("connectTimeout", "10");
        p.putIfAbsent("reWriteBatchedInserts", "true");
        Connection c = DriverManager.getConnection(url, p);
        try {
            c.setAutoCommit(autoCommit);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** Closes {@code c}, if any, ignoring errors: it is being given up. */
    static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // a connection that failed is closed already or will be by the server
            }
        }
    }
}
