package io.millrace.api.time;

/** Extracts the event timestamp (epoch milliseconds) of a record. */
@FunctionalInterface
public interface TimestampAssigner<T> extends java.io.Serializable {
    /**
     * @param recordTimestamp the timestamp the source attached, or {@code Long.MIN_VALUE} if none
     */
    long extractTimestamp(T element, long recordTimestamp);
}
