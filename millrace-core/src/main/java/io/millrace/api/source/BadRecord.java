package io.millrace.api.source;

/**
 * A piece of input that could not be turned into a record: its raw text or bytes, where it came from
 * (file and line, topic, partition and offset) and why it was rejected.
 */
public record BadRecord(String raw, String location, String reason) implements java.io.Serializable {
    /** The side output of a source whose policy is {@link BadRecordPolicy#DEAD_LETTER}. */
    public static final io.millrace.api.OutputTag<BadRecord> DEAD_LETTERS = new io.millrace.api.OutputTag<>("dead-letters");

    @Override
    public String toString() {
        return location + ": " + reason + " [" + raw + "]";
    }
}
