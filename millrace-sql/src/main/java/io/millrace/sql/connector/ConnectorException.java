package io.millrace.sql.connector;

/** A table's connector options are missing, unknown or invalid; the message names the option and what it accepts. */
public final class ConnectorException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConnectorException(String message) {
        super(message);
    }
}
