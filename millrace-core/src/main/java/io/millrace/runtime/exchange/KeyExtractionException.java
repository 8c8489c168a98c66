package io.millrace.runtime.exchange;

/** A key selector failed or returned null; the message names the edge and the record. */
public final class KeyExtractionException extends RuntimeException {
    public KeyExtractionException(String message, Throwable cause) {
        super(message, cause);
    }
}
