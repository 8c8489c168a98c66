package io.millrace.api.window;

/** A finite slice of a stream that is computed and emitted as a whole. */
public interface Window {
    /** The largest timestamp that still belongs to the window; its event-time timer fires at this time. */
    long maxTimestamp();
}
