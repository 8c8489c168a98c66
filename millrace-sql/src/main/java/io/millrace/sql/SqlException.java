package io.millrace.sql;

/**
 * A statement that cannot be parsed, validated, planned or run, with the place in the SQL text it refers to.
 * {@link #getMessage()} starts with {@code line L, column C: } when the place is known and is followed by the
 * line of SQL with a caret under that column.
 */
public final class SqlException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String reason;
    private final int line;
    private final int column;

    /** An error at {@code line} and {@code column} (1-based) of {@code sql}; 0 for either when unknown. */
    public SqlException(String reason, int line, int column, String sql, Throwable cause) {
        super(format(reason, line, column, sql), cause);
        this.reason = reason;
        this.line = line;
        this.column = column;
    }

    /** An error without a place in the text (a failing job, a connector that cannot start). */
    public SqlException(String reason, Throwable cause) {
        this(reason, 0, 0, null, cause);
    }

    /** What is wrong, without the place. */
    public String reason() {
        return reason;
    }

    /** The 1-based line of the statement text the error refers to, or 0 if unknown. */
    public int line() {
        return line;
    }

    /** The 1-based column of the statement text the error refers to, or 0 if unknown. */
    public int column() {
        return column;
    }

    private static String format(String reason, int line, int column, String sql) {
        if (line <= 0) {
            return reason;
        }
        StringBuilder s = new StringBuilder("line ").append(line).append(", column ").append(column).append(": ").append(reason);
        if (sql != null) {
            String[] lines = sql.split("\r?\n", -1);
            if (line <= lines.length) {
                s.append('\n').append(lines[line - 1]).append('\n').append(" ".repeat(Math.max(0, column - 1))).append('^');
            }
        }
        return s.toString();
    }
}
