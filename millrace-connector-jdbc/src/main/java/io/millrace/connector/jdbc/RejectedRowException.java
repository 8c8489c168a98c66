package io.millrace.connector.jdbc;

import java.sql.SQLException;

/**
 * The database refused a row for the row's own sake (a constraint, a value too long or not of the column's type),
 * and the sink's {@link BadRowPolicy} is to fail. The message names the sink, the row, the table and the server's
 * message; {@link #getSQLState()} is the server's SQLSTATE.
 */
public final class RejectedRowException extends SQLException {
    private final String table;
    private final String row;

    RejectedRowException(String sink, String table, String row, SQLException cause) {
        super("PostgreSQL sink '" + sink + "': table " + table + " refused row " + row + ": " + SqlErrors.message(cause),
                SqlErrors.state(cause), cause);
        this.table = table;
        this.row = row;
    }

    /** The table that refused the row. */
    public String table() {
        return table;
    }

    /** The row, as text. */
    public String row() {
        return row;
    }
}
