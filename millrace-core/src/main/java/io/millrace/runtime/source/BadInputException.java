package io.millrace.runtime.source;

/** Input a source could not decode, under the FAIL policy; the message names where and why. */
public final class BadInputException extends RuntimeException {
    public BadInputException(String message) {
        super(message);
    }
}
