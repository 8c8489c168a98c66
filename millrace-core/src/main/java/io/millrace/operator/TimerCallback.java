package io.millrace.operator;

import io.millrace.api.time.TimeDomain;

/**
 * Receives the timers of one {@link OperatorContext#timerService timer service}. Called on the task thread, from
 * {@link OperatorContext#fireEventTimeTimers} (event time) or {@link OperatorContext#fireProcessingTimeTimers}
 * (processing time), with the timer's key as the current key; never concurrently with another call into the
 * operator. It may read and write keyed state, emit, and register or delete timers. An exception fails the task.
 */
@FunctionalInterface
public interface TimerCallback {
    /** The timer at {@code timestamp} of the current key fired, in {@code domain}. */
    void onTimer(long timestamp, TimeDomain domain) throws Exception;
}
