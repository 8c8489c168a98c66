package io.millrace.api.source;

/** Whether a source ends. A bounded source ends the job once all of it is read. */
public enum Boundedness {
    BOUNDED,
    CONTINUOUS_UNBOUNDED
}
