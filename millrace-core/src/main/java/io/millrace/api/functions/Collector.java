package io.millrace.api.functions;

/**
 * Receives the records a user function emits. Records keep the event timestamp of the record being
 * processed (or of the timer being fired). Valid only during the call that received it.
 */
public interface Collector<T> {
    void collect(T value);
}
