package io.millrace.api.source;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * A piece of input that could not be turned into a record: its raw bytes exactly as the source read them,
 * where it came from (file and line, topic, partition and offset) and why it was rejected. Immutable: the
 * constructor and {@link #raw()} copy the bytes.
 *
 * @param raw the input's bytes (for a line of a file: the line without its LF or CRLF terminator; for a record
 *     spanning several lines, the line breaks between them as they were in the file)
 * @param location where the input is, e.g. {@code data/readings.jsonl:17}
 * @param reason why it is bad, naming the field or column when one is at fault
 */
public record BadRecord(byte[] raw, String location, String reason) implements java.io.Serializable {
    /** The side output of a source whose policy is {@link BadRecordPolicy#DEAD_LETTER}. */
    public static final io.millrace.api.OutputTag<BadRecord> DEAD_LETTERS = new io.millrace.api.OutputTag<>("dead-letters");

    public BadRecord {
        raw = Objects.requireNonNull(raw, "raw").clone();
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(reason, "reason");
    }

    /** Input that was text: its UTF-8 encoding becomes the raw bytes. */
    public BadRecord(String rawText, String location, String reason) {
        this(Objects.requireNonNull(rawText, "rawText").getBytes(StandardCharsets.UTF_8), location, reason);
    }

    /** A copy of the raw bytes. */
    @Override
    public byte[] raw() {
        return raw.clone();
    }

    /** The raw bytes decoded as UTF-8, for people to read; bytes that are not UTF-8 become U+FFFD. */
    public String rawText() {
        return new String(raw, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BadRecord other && Arrays.equals(raw, other.raw) && location.equals(other.location)
                && reason.equals(other.reason);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(raw) + location.hashCode()) + reason.hashCode();
    }

    @Override
    public String toString() {
        return location + ": " + reason + " [" + rawText() + "]";
    }
}
