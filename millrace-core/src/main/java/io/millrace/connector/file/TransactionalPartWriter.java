package io.millrace.connector.file;

import io.millrace.api.sink.CommittingSinkWriter;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The writer of one {@link TransactionalFileSink} subtask. Called by the subtask's thread only.
 *
 * <pre>
 *           write                          prepareCommit, or the part reaches the roll size
 *   IDLE ─────────────▶ WRITING ─────────────────────────────────────────────────▶ IDLE
 *     │                    │
 *     └──── close ─────────┴──▶ CLOSED   (close is idempotent; nothing is legal afterwards)
 * </pre>
 *
 * In WRITING an open part file in the staging directory holds the lines since it was opened. A part is
 * finished (forced to the disk and closed) when it reaches the roll size or on {@link #prepareCommit},
 * which renames every part finished since the previous checkpoint to its pending name for that
 * checkpoint. {@link #close} aborts: it deletes the parts not yet prepared.
 */
final class TransactionalPartWriter<T> implements CommittingSinkWriter<T, PendingPart> {
    private enum State { IDLE, WRITING, CLOSED }

    private final StagingArea area;
    private final int subtask;
    private final LineEncoder<T> encoder;
    private final String header;
    private final long rollAtBytes;
    private final StringBuilder line = new StringBuilder(256);
    private final List<Path> finished = new ArrayList<>();
    private final List<PendingPart> outstanding = new ArrayList<>();
    private State state = State.IDLE;
    private PartFileWriter current;
    private long currentBytes;
    private int openCount;
    private long lastCheckpointId = Long.MIN_VALUE;

    TransactionalPartWriter(StagingArea area, int subtask, LineEncoder<T> encoder, long rollAtBytes) {
        this.area = area;
        this.subtask = subtask;
        this.encoder = encoder;
        this.header = encoder.header();
        this.rollAtBytes = rollAtBytes;
    }

    @Override
    public void write(T value, long timestamp) throws Exception {
        if (state != State.WRITING) {
            open();
        }
        line.setLength(0);
        encoder.encode(value, line);
        current.writeLine(line);
        if (rollAtBytes != Long.MAX_VALUE) {
            currentBytes += utf8Length(line) + 1;
            if (currentBytes >= rollAtBytes) {
                finishCurrent();
            }
        }
    }

    private void open() throws IOException {
        if (state == State.CLOSED) {
            throw new IllegalStateException("write after close in the transactional file sink's subtask " + subtask);
        }
        current = new PartFileWriter(area.openFile(subtask, openCount++));
        currentBytes = 0;
        state = State.WRITING;
        if (header != null) {
            current.writeLine(header);
            currentBytes += utf8Length(header) + 1;
        }
    }

    private void finishCurrent() throws IOException {
        current.syncAndClose();
        finished.add(current.path());
        current = null;
        state = State.IDLE;
    }

    /** Nothing becomes visible or durable here: output is made durable by prepareCommit, visible by commit. */
    @Override
    public void flush(boolean endOfInput) {}

    /**
     * Finishes the open part and renames the parts written since the previous checkpoint to their pending
     * names for {@code checkpointId}. Returns them, and again every part this writer prepared before that
     * is not committed yet (of a checkpoint that was declined, or whose commit has not run), so that
     * completing this checkpoint commits them too even if the runtime kept only the latest committables;
     * empty if there is nothing to commit.
     *
     * @throws IllegalStateException if {@code checkpointId} is not greater than the previous one
     */
    @Override
    public List<PendingPart> prepareCommit(long checkpointId) throws IOException {
        if (state == State.CLOSED) {
            throw new IllegalStateException("prepareCommit(" + checkpointId + ") on a closed writer");
        }
        if (checkpointId <= lastCheckpointId) {
            throw new IllegalStateException("checkpoint " + checkpointId + " prepared after checkpoint " + lastCheckpointId);
        }
        lastCheckpointId = checkpointId;
        if (state == State.WRITING) {
            finishCurrent();
        }
        outstanding.removeIf(TransactionalPartWriter::isCommitted);
        for (int n = 0; n < finished.size(); n++) {
            Path pending = area.pendingFile(subtask, checkpointId, n);
            if (Files.exists(pending)) {
                throw new FileAlreadyExistsException(pending.toString(), null,
                        "a pending part of checkpoint " + checkpointId + " already exists: was abortLingering skipped?");
            }
            Files.move(finished.get(n), pending, StandardCopyOption.ATOMIC_MOVE);
            outstanding.add(new PendingPart(pending.toString(), area.finalFile(subtask, checkpointId, n).toString()));
        }
        if (!finished.isEmpty()) {
            finished.clear();
            StagingArea.sync(area.staging());
        }
        return List.copyOf(outstanding);
    }

    /** True if the part's final file exists and its pending file no longer does. */
    private static boolean isCommitted(PendingPart part) {
        return Files.notExists(Path.of(part.pendingPath())) && Files.exists(Path.of(part.finalPath()));
    }

    /** Aborts: deletes the parts written since the last prepareCommit. Idempotent. */
    @Override
    public void close() throws IOException {
        if (state == State.CLOSED) {
            return;
        }
        if (state == State.WRITING) {
            current.close();
            finished.add(current.path());
            current = null;
        }
        state = State.CLOSED;
        for (Path part : finished) {
            Files.deleteIfExists(part);
        }
        finished.clear();
    }

    /** The number of bytes of {@code text} in UTF-8, without allocating. */
    static long utf8Length(CharSequence text) {
        long bytes = 0;
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800 || Character.isSurrogate(c)) {
                bytes += 2;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
