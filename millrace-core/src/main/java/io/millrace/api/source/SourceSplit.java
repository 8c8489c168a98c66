package io.millrace.api.source;

/**
 * A unit of a source that one reader reads in order: a file, a Kafka partition, a simulated machine.
 * Immutable; a reader's snapshot returns splits that carry the position reached, and a reader given
 * such a split resumes from there.
 */
public interface SourceSplit extends java.io.Serializable {
    /** Stable id, unique within the source; watermarks and idleness are tracked per split id. */
    String splitId();
}
