package io.millrace.format;

/** Bytes that do not fit a format's row type, or a row it cannot write; the message names the field and the problem. */
public final class FormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public FormatException(String message) {
        super(message);
    }

    public FormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
