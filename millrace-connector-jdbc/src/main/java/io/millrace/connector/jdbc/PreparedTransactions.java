package io.millrace.connector.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The exactly-once sink's view of the server's prepared transactions ({@code pg_prepared_xacts}) in the sink's
 * database: which of a subtask's are there, and committing or rolling one back by its global id. Runs on a
 * connection in auto-commit mode ({@code COMMIT PREPARED} cannot run inside a transaction).
 */
final class PreparedTransactions {
    /** {@code undefined_object}: no prepared transaction has the id (committed or rolled back already). */
    static final String NO_SUCH_TRANSACTION = "42704";

    private PreparedTransactions() {}

    /** The global ids of {@code subtask}'s prepared transactions, with their checkpoint numbers, lowest first. */
    static List<String> of(Connection c, TransactionIds ids, int subtask) throws SQLException {
        List<String> found = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(
                "SELECT gid FROM pg_prepared_xacts WHERE database = current_database() AND gid LIKE ?")) {
            s.setString(1, ids.likePatternOf(subtask));
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    if (ids.numberOf(subtask, r.getString(1)) >= 0) {
                        found.add(r.getString(1));
                    }
                }
            }
        }
        found.sort((a, b) -> Long.compare(ids.numberOf(subtask, a), ids.numberOf(subtask, b)));
        return found;
    }

    /** Whether {@code gid} is prepared in this database. */
    static boolean isPrepared(Connection c, String gid) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM pg_prepared_xacts WHERE database = current_database() AND gid = ?")) {
            s.setString(1, gid);
            try (ResultSet r = s.executeQuery()) {
                return r.next();
            }
        }
    }

    /** {@code COMMIT PREPARED}; true if committed now, false if no transaction had the id. */
    static boolean commit(Connection c, String gid) throws SQLException {
        return finish(c, "COMMIT PREPARED ", gid);
    }

    /** {@code ROLLBACK PREPARED}; true if rolled back now, false if no transaction had the id. */
    static boolean rollback(Connection c, String gid) throws SQLException {
        return finish(c, "ROLLBACK PREPARED ", gid);
    }

    /** Prepares the connection's open transaction as {@code gid}. */
    static void prepare(Connection c, String gid) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("PREPARE TRANSACTION " + literal(gid));
        }
    }

    private static boolean finish(Connection c, String command, String gid) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(command + literal(gid));
            return true;
        } catch (SQLException e) {
            if (NO_SUCH_TRANSACTION.equals(SqlErrors.state(e))) {
                return false;
            }
            throw e;
        }
    }

    static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }
}
