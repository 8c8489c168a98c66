package io.millrace.api;

/** A job failed; the message names the operator, its subtask and, for a user-function error, the record. */
public class JobExecutionException extends RuntimeException {
    public JobExecutionException(String message, Throwable cause) {
        super(message, cause);
    }
}
