package io.millrace.api.source;

/**
 * Where a reader emits records. Records emitted through {@link #split} take part in that split's
 * watermark generation and idleness; the plain methods use one shared split.
 */
public interface ReaderOutput<T> {
    /** Emits a record without a source timestamp (the timestamp assigner must give one). */
    void collect(T value);

    /** Emits a record with the source's own timestamp (e.g. a Kafka record's timestamp). */
    void collect(T value, long timestamp);

    /** The output for one split, for per-split watermarks; cheap to call, cache it per split. */
    SplitOutput<T> split(String splitId);

    /** Tells the runtime a split is fully read: it no longer holds back the watermark. */
    void releaseSplit(String splitId);

    /** A record the reader could not decode, for the source's bad-input policy. */
    void reportBadRecord(BadRecord bad);

    /** Per-split output. */
    interface SplitOutput<T> {
        void collect(T value);

        void collect(T value, long timestamp);
    }
}
