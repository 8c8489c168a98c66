package io.millrace.connector.file;

import io.millrace.api.source.SourceSplit;

/**
 * One file of a {@link FileSource} and how far it was read: {@code offset} is the byte offset just after
 * the last record emitted (or reported bad), {@code line} the number of lines up to there (so the next
 * record starts on line {@code line + 1}). The split id is the path.
 */
public record FileSplit(String path, long offset, long line) implements SourceSplit {
    public FileSplit {
        if (offset < 0 || line < 0) {
            throw new IllegalArgumentException("offset and line must not be negative, were " + offset + ", " + line);
        }
    }

    /** The start of a file. */
    public static FileSplit start(String path) {
        return new FileSplit(path, 0, 0);
    }

    @Override
    public String splitId() {
        return path;
    }
}
