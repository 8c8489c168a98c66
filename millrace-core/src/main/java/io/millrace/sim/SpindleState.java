package io.millrace.sim;

/** Whether a machine's spindle turns. */
public enum SpindleState {
    RUNNING,
    STOPPED
}
