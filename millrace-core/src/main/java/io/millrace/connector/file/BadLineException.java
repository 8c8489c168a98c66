package io.millrace.connector.file;

/**
 * A record's text cannot be decoded; the message is the reason. Thrown by decoders and caught by the
 * reader, which reports the line as a {@link io.millrace.api.source.BadRecord}. Carries no stack trace.
 */
public final class BadLineException extends Exception {
    public BadLineException(String reason) {
        super(reason, null, false, false);
    }

    /** The reason of a user function's failure: its message, or its class when it has none. */
    static BadLineException of(Throwable cause) {
        String message = cause.getMessage();
        String name = cause.getClass().getSimpleName();
        return new BadLineException(message == null || message.isBlank() ? name : name + ": " + message);
    }
}
