package io.millrace.operator;

/** Unwinds a task thread blocked on a full channel when the job is cancelled. Not an error. */
public final class TaskCancelledException extends RuntimeException {
    public TaskCancelledException() {
        super("task cancelled", null, false, false);
    }
}
