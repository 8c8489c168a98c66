package io.millrace.api.source;

/**
 * What a source does with input it cannot decode. Nothing is ever dropped silently: under every policy the
 * source's metric {@code badRecords} ({@link io.millrace.api.metrics.OperatorMetrics#badRecords()}) counts it.
 */
public enum BadRecordPolicy {
    /** Fail the job with an error naming where the bad input is and why. */
    FAIL,
    /** Skip it; the metric {@code badRecords} counts it. */
    SKIP,
    /** Emit it as a {@link BadRecord} on the source's dead-letter side output {@link BadRecord#DEAD_LETTERS}. */
    DEAD_LETTER
}
