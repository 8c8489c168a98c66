package io.millrace.runtime.exchange;

import io.millrace.api.functions.KeySelector;

/** A key selector failed or returned null; the message names the selector's place and the record. */
public final class KeyExtractionException extends RuntimeException {
    public KeyExtractionException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * The key of {@code value}; a selector that fails or returns null fails with this exception, naming
     * {@code where} (e.g. {@code "edge 'a' -> 'b'"} or {@code "'sum (local)'"}) and the record.
     */
    public static Object keyOf(KeySelector<Object, Object> selector, Object value, String where) {
        Object key;
        try {
            key = selector.getKey(value);
        } catch (Exception e) {
            throw new KeyExtractionException("the key selector of " + where + " failed on record " + RecordWriter.describe(value), e);
        }
        if (key == null) {
            throw new KeyExtractionException("the key selector of " + where + " returned null for record " + RecordWriter.describe(value), null);
        }
        return key;
    }
}
