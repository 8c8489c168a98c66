package io.millrace.connector.file;

/**
 * How a {@link FileSink} writes a record as one line of text. Immutable and serializable; {@link #encode}
 * is called by one writer thread.
 */
public interface LineEncoder<T> extends java.io.Serializable {
    /** The file name extension, without the dot ({@code jsonl}, {@code csv}). */
    String extension();

    /** The first line of every file, or null for none. */
    default String header() {
        return null;
    }

    /** Appends {@code value} to {@code line}, without a line terminator and without line breaks. */
    void encode(T value, StringBuilder line) throws Exception;
}
