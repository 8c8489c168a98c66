package io.millrace.connector.jdbc;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a sink does with a row the database refuses for the row's own sake: a value too long or out of range, a
 * string that is no value of the column's type, a violated not-null, unique, foreign-key or check constraint
 * (SQLSTATE classes 22 and 23). Such a row is never tried again: the same row would fail the same way.
 *
 * <ul>
 *   <li>{@link #fail()} (the default): the sink fails the task with a {@link RejectedRowException} naming the row,
 *       the table and the server's message; the restart strategy decides what follows (a restart from the last
 *       checkpoint meets the same row again, so the job fails for good once the restarts are used up).
 *   <li>{@link #deadLetter(String)}: the row goes, as text with the server's message and SQLSTATE, to a dead-letter
 *       table in the same database and transaction as the good rows, and the sink goes on.
 * </ul>
 */
public final class BadRowPolicy implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");
    private static final BadRowPolicy FAIL = new BadRowPolicy(null);

    private final String deadLetterTable;

    private BadRowPolicy(String deadLetterTable) {
        this.deadLetterTable = deadLetterTable;
    }

    /** Fails the task naming the row, the table and the server's message. */
    public static BadRowPolicy fail() {
        return FAIL;
    }

    /**
     * Writes refused rows to {@code table} ({@code name} or {@code schema.name}, letters, digits and {@code _}), which
     * the sink creates when it is missing, with the columns {@code sink text, target_table text, row_text text,
     * sql_state text, reason text, failed_at timestamptz}.
     */
    public static BadRowPolicy deadLetter(String table) {
        if (table == null || !NAME.matcher(table).matches()) {
            throw new IllegalArgumentException("option 'deadLetterTable' must be a table name (letters, digits and '_', optionally"
                    + " with a schema: schema.table), was " + (table == null ? "null" : "'" + table + "'"));
        }
        return new BadRowPolicy(table);
    }

    /** The dead-letter table, or null when bad rows fail the task. */
    public String deadLetterTable() {
        return deadLetterTable;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BadRowPolicy p && Objects.equals(deadLetterTable, p.deadLetterTable);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(deadLetterTable);
    }

    @Override
    public String toString() {
        return deadLetterTable == null ? "fail" : "dead-letter to " + deadLetterTable;
    }
}
