package io.millrace.runtime.task;

/** A task could not take part in a checkpoint (e.g. a sink's commit failed). Fails the task. */
public final class CheckpointFailure extends RuntimeException {
    public CheckpointFailure(String message, Throwable cause) {
        super(message + ": " + cause, cause);
    }
}
