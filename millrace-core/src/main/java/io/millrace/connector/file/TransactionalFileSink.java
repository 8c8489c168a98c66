package io.millrace.connector.file;

import io.millrace.api.sink.Committer;
import io.millrace.api.sink.CommittingSinkWriter;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.sink.TwoPhaseCommitSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Writes records as lines of text files, exactly once: output becomes visible only when the checkpoint
 * that covers it completes, and a job restored after a crash neither loses nor repeats a line.
 *
 * <p>Each subtask writes into an open file in the hidden staging directory {@code <dir>/.in-progress}.
 * On a checkpoint barrier the file is flushed, forced to the disk, closed and renamed to a pending name
 * for that checkpoint; the next record opens a new one. When the checkpoint completes, each pending file
 * is renamed atomically to {@code <prefix>-<subtask>-<checkpoint>-<n>.<extension>} in {@code <dir>}
 * ({@code n} counts the parts of one checkpoint when a part reaches {@link #rollAtBytes}). A reader of
 * {@code <dir>} that skips hidden entries (like {@link FileSource}) sees only complete files of complete
 * checkpoints. CSV parts each start with the header row.
 *
 * <p>Two sinks may share a directory only with different {@link #partPrefix part prefixes}.
 *
 * <pre>{@code
 * stream.sinkTo(TransactionalFileSink.jsonLines(Path.of("out/alerts")));
 * stream.sinkTo(TransactionalFileSink.csv(Path.of("out/readings"), CsvEncoder.ofRecord(Reading.class)));
 * }</pre>
 */
public final class TransactionalFileSink<T> implements TwoPhaseCommitSink<T, PendingPart>,
        io.millrace.api.sink.versioned.VersionedCommittables<PendingPart> {
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_-]*");

    private final String directory;
    private final LineEncoder<T> encoder;
    private final String prefix;
    private final long rollAtBytes;

    private TransactionalFileSink(String directory, LineEncoder<T> encoder, String prefix, long rollAtBytes) {
        this.directory = directory;
        this.encoder = encoder;
        this.prefix = prefix;
        this.rollAtBytes = rollAtBytes;
    }

    /** Any line format. The directory is made absolute against the current directory now. */
    public static <T> TransactionalFileSink<T> of(Path directory, LineEncoder<T> encoder) {
        String dir = Objects.requireNonNull(directory, "directory").toAbsolutePath().normalize().toString();
        return new TransactionalFileSink<>(dir, Objects.requireNonNull(encoder, "encoder"), "part", Long.MAX_VALUE);
    }

    /** One JSON value per line, serialized by Jackson; parts end with {@code .jsonl}. */
    public static <T> TransactionalFileSink<T> jsonLines(Path directory) {
        return of(directory, JsonLines.encoder());
    }

    /** CSV with a header row at the top of every part; parts end with {@code .csv}. */
    public static <T> TransactionalFileSink<T> csv(Path directory, CsvEncoder<T> encoder) {
        return of(directory, encoder);
    }

    /**
     * The start of every file name (default {@code part}): letters, digits, {@code _} and {@code -}, not
     * starting with {@code -}. Sinks writing the same directory need different prefixes.
     */
    public TransactionalFileSink<T> partPrefix(String value) {
        if (value == null || !PREFIX.matcher(value).matches()) {
            throw new IllegalArgumentException("option 'partPrefix' must be letters, digits, '_' and '-', not starting with '-', was "
                    + (value == null ? "null" : "'" + value + "'"));
        }
        return new TransactionalFileSink<>(directory, encoder, value, rollAtBytes);
    }

    /**
     * Starts a new part within a checkpoint once the current one holds at least {@code bytes} bytes
     * (default: one part per subtask and checkpoint).
     */
    public TransactionalFileSink<T> rollAtBytes(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("option 'rollAtBytes' must be positive, was " + bytes);
        }
        return new TransactionalFileSink<>(directory, encoder, prefix, bytes);
    }

    /** The directory of committed parts. */
    public Path directory() {
        return Path.of(directory);
    }

    /** The hidden directory of open and pending parts, {@code <directory>/.in-progress}. */
    public Path stagingDirectory() {
        return area().staging();
    }

    private StagingArea area() {
        return new StagingArea(Path.of(directory), prefix, encoder.extension());
    }

    @Override
    public CommittingSinkWriter<T, PendingPart> createWriter(SinkContext context) throws IOException {
        Files.createDirectories(stagingDirectory());
        return new TransactionalPartWriter<>(area(), context.subtaskIndex(), encoder, rollAtBytes);
    }

    /** A committer that can commit the parts of any subtask of this sink. */
    @Override
    public Committer<PendingPart> createCommitter(SinkContext context) {
        return new PartCommitter();
    }

    /**
     * Deletes the open parts of this subtask and its pending parts of checkpoints after {@code
     * restoredCheckpointId} (all of them when it is -1); after a decrease of parallelism also those of the
     * subtasks that no longer exist and whose index maps to this one. Pending parts of the restored
     * checkpoint and earlier, other subtasks' files and committed files are left alone. Idempotent.
     *
     * @throws IllegalStateException if this subtask already committed a part for a checkpoint after
     *     {@code restoredCheckpointId}: the restored job would write that output a second time (a fresh
     *     start into a directory with output of an earlier run, or a restore from an older checkpoint)
     */
    @Override
    public void abortLingering(SinkContext context, long restoredCheckpointId) throws IOException {
        StagingArea area = area();
        int index = context.subtaskIndex();
        int parallelism = context.parallelism();
        for (StagingArea.Entry part : area.committed()) {
            if (StagingArea.ownedBy(part.subtask(), index, parallelism) && part.checkpointId() > restoredCheckpointId) {
                throw new IllegalStateException("committed output " + part.path() + " is of checkpoint " + part.checkpointId()
                        + (restoredCheckpointId < 0 ? ", but the job starts afresh" : ", after the restored checkpoint " + restoredCheckpointId)
                        + ": it would be written twice; move it away, or write to another directory or part prefix");
            }
        }
        boolean deleted = false;
        for (StagingArea.Entry part : area.staged()) {
            boolean lingering = part.isOpen() || part.checkpointId() > restoredCheckpointId;
            if (lingering && StagingArea.ownedBy(part.subtask(), index, parallelism)) {
                deleted |= Files.deleteIfExists(part.path());
            }
        }
        if (deleted) {
            StagingArea.sync(area.staging());
        }
    }

    /** Pending parts are stored in checkpoints as version 1 of {@link PendingPart.Codec}. */
    @Override
    public io.millrace.api.source.VersionedCodec<PendingPart> committableCodec() {
        return new PendingPart.Codec();
    }
}
