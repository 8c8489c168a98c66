package io.millrace.connector.file;

import io.millrace.api.sink.Sink;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.sink.SinkWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Writes records as lines of text files in a directory, one file per sink subtask named
 * {@code part-<subtask>.<extension>} (created or truncated when the job starts). A line is written through
 * a buffer; {@code flush} hands it to the operating system, so after the job ends every file is complete
 * and readable. At-least-once: a job restarted after a failure rewrites its files from the start.
 *
 * <pre>{@code
 * stream.sinkTo(FileSink.jsonLines(Path.of("out/alerts")));
 * stream.sinkTo(FileSink.csv(Path.of("out/readings"), CsvEncoder.ofRecord(Reading.class)));
 * }</pre>
 */
public final class FileSink<T> implements Sink<T> {
    private final String directory;
    private final LineEncoder<T> encoder;

    private FileSink(Path directory, LineEncoder<T> encoder) {
        this.directory = Objects.requireNonNull(directory, "directory").toString();
        this.encoder = Objects.requireNonNull(encoder, "encoder");
    }

    /** Any line format. */
    public static <T> FileSink<T> of(Path directory, LineEncoder<T> encoder) {
        return new FileSink<>(directory, encoder);
    }

    /** One JSON value per line, serialized by Jackson. */
    public static <T> FileSink<T> jsonLines(Path directory) {
        return new FileSink<>(directory, JsonLines.encoder());
    }

    /** CSV with a header row. */
    public static <T> FileSink<T> csv(Path directory, CsvEncoder<T> encoder) {
        return new FileSink<>(directory, encoder);
    }

    /** The file that subtask {@code subtask} writes. */
    public Path partFile(int subtask) {
        return Path.of(directory, "part-" + subtask + "." + encoder.extension());
    }

    @Override
    public SinkWriter<T> createWriter(SinkContext context) throws IOException {
        PartFileWriter file = new PartFileWriter(partFile(context.subtaskIndex()));
        String header = encoder.header();
        if (header != null) {
            file.writeLine(header);
        }
        return new Writer<>(file, encoder);
    }

    /** Encodes each record into a reused line buffer. Called by the sink subtask's thread only. */
    private static final class Writer<T> implements SinkWriter<T> {
        private final PartFileWriter file;
        private final LineEncoder<T> encoder;
        private final StringBuilder line = new StringBuilder(256);

        Writer(PartFileWriter file, LineEncoder<T> encoder) {
            this.file = file;
            this.encoder = encoder;
        }

        @Override
        public void write(T value, long timestamp) throws Exception {
            line.setLength(0);
            encoder.encode(value, line);
            file.writeLine(line);
        }

        @Override
        public void flush(boolean endOfInput) throws IOException {
            file.flush();
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }
}
