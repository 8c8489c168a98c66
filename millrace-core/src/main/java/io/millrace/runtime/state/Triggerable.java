package io.millrace.runtime.state;

/** Receives firing timers; the timer's key is the backend's current key during the call. */
public interface Triggerable<N> {
    void onEventTime(long timestamp, N namespace) throws Exception;

    void onProcessingTime(long timestamp, N namespace) throws Exception;
}
