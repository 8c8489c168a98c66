package io.millrace.connector.jdbc;

import java.sql.SQLException;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * What a failure of the database means to a sink, by its SQLSTATE: transient (the connection was lost, the server is
 * starting or shutting down, a serialization failure or deadlock: worth trying the same thing again), a bad row
 * (class 22, data exception: a value too long, out of range or not of the column's type; class 23, integrity
 * constraint violation: a unique, not-null, foreign-key or check constraint), or anything else (a missing table or
 * column, no permission: the job's configuration is wrong, and trying again would not help).
 */
final class SqlErrors {
    private SqlErrors() {}

    /** The SQLSTATE of the server's error behind {@code e}: a batch's failure carries it in its next exception. */
    static String state(SQLException e) {
        SQLException s = e;
        while (s != null) {
            if (s.getSQLState() != null && !(s instanceof java.sql.BatchUpdateException && s.getNextException() != null)) {
                return s.getSQLState();
            }
            s = s.getNextException();
        }
        return e.getSQLState();
    }

    static boolean isTransient(SQLException e) {
        String state = state(e);
        if (state == null) {
            return e.getCause() instanceof java.io.IOException;
        }
        return state.startsWith("08")                 // connection exception
                || state.equals("40001")              // serialization_failure
                || state.equals("40P01")              // deadlock_detected
                || state.equals("57P01")              // admin_shutdown
                || state.equals("57P02")              // crash_shutdown
                || state.equals("57P03")              // cannot_connect_now (starting up, shutting down)
                || state.equals("53300");             // too_many_connections
    }

    static boolean isBadRow(SQLException e) {
        String state = state(e);
        return state != null && (state.startsWith("22") || state.startsWith("23"));
    }

    /** The server's own message, with its detail, and the SQLSTATE, e.g. {@code value too long for type ... (SQLSTATE 22001)}. */
    static String message(SQLException e) {
        SQLException s = e;
        while (s != null) {
            if (s instanceof PSQLException p && p.getServerErrorMessage() != null) {
                ServerErrorMessage m = p.getServerErrorMessage();
                String detail = m.getDetail() == null ? "" : "; " + m.getDetail();
                return m.getMessage() + detail + " (SQLSTATE " + m.getSQLState() + ")";
            }
            if (s.getNextException() == null) {
                break;
            }
            s = s.getNextException();
        }
        String state = state(e);
        return s.getMessage() + (state == null ? "" : " (SQLSTATE " + state + ")");
    }
}
