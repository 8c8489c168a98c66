package io.millrace.connector.file;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One open part file of a {@link FileSink} or {@link TransactionalFileSink}: UTF-8 lines appended through
 * a buffer. The file is created or truncated on open. Kept apart from naming, so that the exactly-once
 * sink can write an in-progress file and rename it on commit. Used by one thread.
 */
final class PartFileWriter implements AutoCloseable {
    private final Path path;
    private final FileChannel channel;
    private final BufferedWriter writer;
    private boolean closed;

    PartFileWriter(Path path) throws IOException {
        this.path = path;
        Files.createDirectories(path.toAbsolutePath().getParent());
        this.channel = FileChannel.open(path,
                StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        this.writer = new BufferedWriter(new OutputStreamWriter(Channels.newOutputStream(channel), StandardCharsets.UTF_8));
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

    /** Flushes and forces the file's content and size to the disk, then closes. */
    void syncAndClose() throws IOException {
        writer.flush();
        channel.force(true);
        close();
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
