package io.millrace.api.source;

/** What a source does with input it cannot decode. Nothing is ever dropped silently. */
public enum BadRecordPolicy {
    /** Fail the job with an error naming where the bad input is and why. */
    FAIL,
    /** Skip it and count it (metric {@code badRecordsSkipped}). */
    SKIP,
    /** Emit it as a {@link BadRecord} on the source's dead-letter side output {@link BadRecord#DEAD_LETTERS}. */
    DEAD_LETTER
}
