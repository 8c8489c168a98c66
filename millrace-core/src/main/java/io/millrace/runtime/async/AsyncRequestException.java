package io.millrace.runtime.async;

/** A request of an async function failed for good: an error, a timeout, or attempts used up. */
public final class AsyncRequestException extends Exception {
    AsyncRequestException(String message, Throwable cause) {
        super(message, cause);
    }
}
