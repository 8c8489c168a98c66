package io.millrace.cep;

/** How an event taken by a pattern element relates to the event taken before it. */
enum Contiguity {
    /** The very next event ({@code next}, {@code consecutive}). */
    STRICT,
    /** The first event after it that the element takes; events it would not take are skipped ({@code followedBy}). */
    RELAXED,
    /** Any later event the element takes, each in its own partial match ({@code followedByAny}, {@code allowCombinations}). */
    ANY
}
