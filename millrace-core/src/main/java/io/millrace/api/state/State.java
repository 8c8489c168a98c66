package io.millrace.api.state;

/** A piece of keyed state, scoped to the key of the record or timer being processed. */
public interface State {
    /** Removes the value of the current key. */
    void clear();
}
