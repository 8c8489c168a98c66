package io.millrace.connector.generator;

/** The event time of the record with a given index, in epoch milliseconds; a pure function of the index. */
@FunctionalInterface
public interface IndexTimestamps extends java.io.Serializable {
    long timestampOf(long index);
}
