package io.millrace.api.time;

/** The two clocks a timer can follow. */
public enum TimeDomain {
    EVENT_TIME,
    PROCESSING_TIME
}
