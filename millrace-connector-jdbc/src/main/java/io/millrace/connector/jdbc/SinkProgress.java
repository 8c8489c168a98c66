package io.millrace.connector.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The exactly-once append sink's record of what it committed: every transaction inserts the row
 * {@code (prefix, subtask, checkpoint)} into a small table of the sink's database (default
 * {@code millrace_sink_progress}), so the row becomes visible exactly when the transaction's rows do. Recovery reads
 * it to tell a transaction that was committed from one that was rolled back (both are gone from
 * {@code pg_prepared_xacts}), and to refuse a start that would write rows a second time: a fresh start, or a restore
 * from a checkpoint older than one whose rows are already committed. The committer keeps only the newest row per
 * subtask. Inserts of one subtask's transactions never wait for each other (each has its own row), so a prepared
 * transaction does not hold up the next.
 */
final class SinkProgress implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final String table;

    SinkProgress(String table) {
        this.table = table;
    }

    String table() {
        return table;
    }

    /** Creates the table when it is missing (auto-commit connection). */
    void create(Connection autoCommit) throws SQLException {
        try (Statement s = autoCommit.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + TableStatements.table(table)
                    + " (prefix text NOT NULL, subtask integer NOT NULL, checkpoint bigint NOT NULL, PRIMARY KEY (prefix, subtask, checkpoint))");
        } catch (SQLException e) {
            String state = SqlErrors.state(e);
            if (!"23505".equals(state) && !"42P07".equals(state)) { // another subtask created it at the same moment
                throw e;
            }
        }
    }

    /** Inserts the row of checkpoint {@code checkpointId} into the connection's open transaction. */
    void record(Connection c, String prefix, int subtask, long checkpointId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO " + TableStatements.table(table) + " (prefix, subtask, checkpoint) VALUES (?, ?, ?)")) {
            s.setString(1, prefix);
            s.setInt(2, subtask);
            s.setLong(3, checkpointId);
            s.executeUpdate();
        }
    }

    /** The newest committed checkpoint of {@code subtask}, or -1. */
    long newest(Connection c, String prefix, int subtask) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT max(checkpoint) FROM " + TableStatements.table(table) + " WHERE prefix = ? AND subtask = ?")) {
            s.setString(1, prefix);
            s.setInt(2, subtask);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                long max = r.getLong(1);
                return r.wasNull() ? -1 : max;
            }
        }
    }

    /** Removes the rows of {@code subtask} older than {@code checkpointId}, which is committed (auto-commit connection). */
    void forgetBefore(Connection c, String prefix, int subtask, long checkpointId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("DELETE FROM " + TableStatements.table(table) + " WHERE prefix = ? AND subtask = ? AND checkpoint < ?")) {
            s.setString(1, prefix);
            s.setInt(2, subtask);
            s.setLong(3, checkpointId);
            s.executeUpdate();
        }
    }
}
