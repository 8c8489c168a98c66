package io.millrace.runtime.exchange;

/**
 * A key selector failed or returned null; the message names the selector's place ({@code where}, e.g.
 * {@code "edge 'a' -> 'b'"} or {@code "'sum (local)'"}) and the record.
 *
 * <p>Callers call the selector themselves and build this exception only when it fails: a shared helper that made
 * the call would have one call site, profiled by the compiler across every caller, and with three kinds of
 * selectors in a JVM the call would go through a dispatch table and never be inlined.
 */
public final class KeyExtractionException extends RuntimeException {
    public KeyExtractionException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The selector of {@code where} threw {@code cause} on {@code value}. */
    public static KeyExtractionException failed(String where, Object value, Exception cause) {
        return new KeyExtractionException("the key selector of " + where + " failed on record " + RecordWriter.describe(value), cause);
    }

    /** The selector of {@code where} returned null for {@code value}. */
    public static KeyExtractionException nullKey(String where, Object value) {
        return new KeyExtractionException("the key selector of " + where + " returned null for record " + RecordWriter.describe(value), null);
    }
}
