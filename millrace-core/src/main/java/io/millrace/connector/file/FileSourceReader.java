package io.millrace.connector.file;

import io.millrace.api.source.BadRecord;
import io.millrace.api.source.InputStatus;
import io.millrace.api.source.ReaderOutput;
import io.millrace.api.source.SourceReader;
import io.millrace.connector.pacing.RateLimit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the files assigned to one subtask, one after the other, at most a batch of records per poll.
 * Called by the subtask's thread only. Records go to the split output of their file; a finished file is
 * released. A bad record is reported with the bytes of its lines as they are in the file. When paced, a poll
 * reads at most the records its {@link RateLimit} permits and says {@code NOTHING_AVAILABLE} until some are due.
 */
final class FileSourceReader<T> implements SourceReader<T, FileSplit> {
    private final LineFormat<T> format;
    private final String sourceName;
    /** Null: unpaced. */
    private final RateLimit limit;
    private final ArrayDeque<FileSplit> pending = new ArrayDeque<>();
    private boolean noMoreSplits;

    private FileSplit current;
    private LineReader lines;
    private LineFormat.LineDecoder<T> decoder;
    private ReaderOutput<T> outOf;
    private ReaderOutput.SplitOutput<T> out;
    private long line;
    /** The bytes of the record read last when it spans several lines; unused (empty) for one-line records. */
    private final ByteArrayOutputStream multiLine = new ByteArrayOutputStream();
    private boolean spansLines;
    /** Index in the record read last of its first byte that is not UTF-8, or -1. */
    private int malformedAt;

    /** {@code limit} null: read as fast as the pipeline takes the records. */
    FileSourceReader(LineFormat<T> format, String sourceName, RateLimit limit) {
        this.format = format;
        this.sourceName = sourceName;
        this.limit = limit;
    }

    @Override
    public long nanosUntilAvailable() {
        return limit == null || (current == null && pending.isEmpty()) ? -1 : limit.nanosUntilChunk();
    }

    @Override
    public void addSplits(List<FileSplit> splits) {
        pending.addAll(splits);
    }

    @Override
    public void noMoreSplits() {
        noMoreSplits = true;
    }

    @Override
    public InputStatus pollNext(ReaderOutput<T> output) throws IOException {
        if (current == null) {
            if (pending.isEmpty()) {
                return noMoreSplits ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
            }
            open(pending.poll());
        }
        if (outOf != output) {
            outOf = output;
            out = output.split(current.splitId());
        }
        long allowed = FileSource.BATCH;
        if (limit != null) {
            allowed = limit.permits(FileSource.BATCH);
            if (allowed == 0) {
                return InputStatus.NOTHING_AVAILABLE;
            }
        }
        long used = 0;
        InputStatus status = InputStatus.MORE_AVAILABLE;
        for (int n = 0; n < FileSource.BATCH && used < allowed; n++) {
            long first = line + 1;
            String text = readRecord(output);
            if (text == null) {
                finish(output);
                status = pending.isEmpty() && noMoreSplits ? InputStatus.END_OF_INPUT : InputStatus.MORE_AVAILABLE;
                break;
            }
            if (text.isBlank()) {
                continue;
            }
            used++;
            if (malformedAt >= 0) {
                reportBad(output, first, "not valid UTF-8 (byte " + (malformedAt + 1) + " of the record)");
                continue;
            }
            T value;
            try {
                value = decoder.decode(text);
            } catch (BadLineException e) {
                reportBad(output, first, e.getMessage());
                continue;
            }
            out.collect(value);
        }
        if (limit != null && used < allowed) {
            limit.giveBack(allowed - used);
        }
        return status;
    }

    /**
     * The next record's text (one line, or more for a record with line breaks); null at the end of the
     * file. An unfinished record at the end of the file is reported here and read as a blank record.
     */
    private String readRecord(ReaderOutput<T> output) throws IOException {
        String text = readLine();
        if (text == null) {
            return null;
        }
        spansLines = false;
        malformedAt = lines.malformedAt(text);
        long first = line;
        while (format.continuesOnNextLine(text)) {
            if (!spansLines) {
                spansLines = true;
                multiLine.reset();
            }
            int terminator = lines.lastTerminatorLength();
            lines.appendLastLine(multiLine, true);
            String next = readLine();
            if (next == null) {
                byte[] all = multiLine.toByteArray();
                output.reportBadRecord(new BadRecord(Arrays.copyOf(all, all.length - terminator), current.path() + ":" + first,
                        "the file ends inside a quoted field"));
                return "";
            }
            int malformed = lines.malformedAt(next);
            if (malformedAt < 0 && malformed >= 0) {
                malformedAt = multiLine.size() + malformed;
            }
            text = text + "\n" + next;
        }
        if (spansLines) {
            lines.appendLastLine(multiLine, false);
        }
        return text;
    }

    /** The bytes of the record read last, exactly as in the file, without the terminator of its last line. */
    private byte[] rawRecord() {
        return spansLines ? multiLine.toByteArray() : lines.lastLineBytes();
    }

    private void reportBad(ReaderOutput<T> output, long firstLine, String reason) {
        output.reportBadRecord(new BadRecord(rawRecord(), current.path() + ":" + firstLine, reason));
    }

    private String readLine() throws IOException {
        try {
            String text = lines.readLine();
            if (text != null) {
                line++;
            }
            return text;
        } catch (IOException e) {
            throw failure(current.path(), e);
        }
    }

    private void open(FileSplit split) throws IOException {
        Path path = Path.of(split.path());
        String header = null;
        try {
            if (format.hasHeader()) {
                try (LineReader head = new LineReader(path, 0)) {
                    header = head.readLine();
                }
            }
            decoder = format.open(split.path(), header);
            lines = new LineReader(path, split.offset());
        } catch (IOException e) {
            throw failure(split.path(), e);
        }
        current = split;
        line = split.line();
        outOf = null;
        if (header != null && split.offset() == 0) {
            readLine();
        }
    }

    private IOException failure(String path, IOException cause) {
        return new IOException("file source '" + sourceName + "' cannot read " + path + ": " + cause, cause);
    }

    private void finish(ReaderOutput<T> output) throws IOException {
        String id = current.splitId();
        closeCurrent();
        output.releaseSplit(id);
    }

    private void closeCurrent() throws IOException {
        LineReader open = lines;
        current = null;
        lines = null;
        decoder = null;
        out = null;
        outOf = null;
        if (open != null) {
            open.close();
        }
    }

    @Override
    public List<FileSplit> snapshotState() {
        List<FileSplit> state = new ArrayList<>(pending.size() + 1);
        if (current != null) {
            state.add(new FileSplit(current.path(), lines.offset(), line));
        }
        state.addAll(pending);
        return state;
    }

    @Override
    public void close() throws IOException {
        closeCurrent();
        pending.clear();
    }
}
