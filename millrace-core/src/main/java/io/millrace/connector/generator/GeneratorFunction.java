package io.millrace.connector.generator;

/**
 * Makes the record with a given index. Must be a pure function of the index (same index, equal record):
 * that is what makes a {@link GeneratorSource} replayable from a snapshot. Called by the reader's thread.
 */
@FunctionalInterface
public interface GeneratorFunction<T> extends java.io.Serializable {
    T apply(long index);
}
