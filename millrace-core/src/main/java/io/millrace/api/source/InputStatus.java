package io.millrace.api.source;

/** What a {@link SourceReader#pollNext} call found. */
public enum InputStatus {
    /** Records were emitted and more are available now: call again soon. */
    MORE_AVAILABLE,
    /** Nothing to read right now (rate limit, no new data); the task may park briefly before polling again. */
    NOTHING_AVAILABLE,
    /** Every assigned split is fully read and no more splits will come. */
    END_OF_INPUT
}
