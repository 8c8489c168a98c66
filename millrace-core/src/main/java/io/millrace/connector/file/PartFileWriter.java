package io.millrace.connector.file;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One open part file of a {@link FileSink}: UTF-8 lines appended through a buffer. The file is created
 * or truncated on open. Kept apart from naming so that an exactly-once variant can open an in-progress
 * file and rename it on commit. Used by one thread.
 */
final class PartFileWriter implements AutoCloseable {
    private final Path path;
    private final BufferedWriter writer;
    private boolean closed;

    PartFileWriter(Path path) throws IOException {
        this.path = path;
        Files.createDirectories(path.toAbsolutePath().getParent());
        this.writer = Files.newBufferedWriter(path, StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
    }

    Path path() {
        return path;
    }

    void writeLine(CharSequence line) throws IOException {
        writer.append(line).append('\n');
    }

    /** Hands the buffered lines to the operating system. */
    void flush() throws IOException {
        writer.flush();
    }

    /** Flushes and closes; idempotent. */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            writer.close();
        }
    }
}
