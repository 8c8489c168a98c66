package io.millrace.sql.types;

/**
 * A construct the planner does not support yet, or a plan it cannot lower; the session turns it into a
 * {@link io.millrace.sql.SqlException} at the statement's position.
 */
public final class UnsupportedSql extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UnsupportedSql(String message) {
        super(message);
    }
}
