package io.millrace.connector.file;

/**
 * How a {@link FileSource} turns the lines of a text file into records. A record is one line, or
 * several when {@link #continuesOnNextLine} says so (a quoted CSV field with a line break). Blank lines
 * are not records. Implementations are immutable and serializable; the decoders they open are used by
 * one reader thread.
 */
public interface LineFormat<T> extends java.io.Serializable {
    /** True if the first line of every file names the columns instead of holding a record. */
    default boolean hasHeader() {
        return false;
    }

    /** True if {@code partial} is an unfinished record whose next line belongs to it. */
    default boolean continuesOnNextLine(String partial) {
        return false;
    }

    /**
     * A decoder for one file.
     *
     * @param file the file's path, for error messages
     * @param header the file's first line when {@link #hasHeader}, otherwise null; null also when the
     *     file is empty
     * @throws IllegalArgumentException if the header is unusable (e.g. duplicate column names): the whole
     *     file cannot be read, and the reader fails naming the file
     */
    LineDecoder<T> open(String file, String header);

    /** Decodes the records of one file. */
    @FunctionalInterface
    interface LineDecoder<T> {
        /** The record of {@code text}, never null; throws {@link BadLineException} with the reason if it has none. */
        T decode(String text) throws BadLineException;
    }
}
