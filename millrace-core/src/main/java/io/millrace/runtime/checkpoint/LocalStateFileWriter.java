package io.millrace.runtime.checkpoint;

import io.millrace.runtime.state.SnapshotFiles;
import io.millrace.runtime.state.StateHandle;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes one state file of a checkpoint in a local directory. Used by one thread (the subtask's snapshot
 * writer). {@link #closeAndGetHandle} drains and fsyncs the file and returns its handle; {@link #close}
 * without it abandons the file and deletes it.
 *
 * <pre>
 *  OPEN --closeAndGetHandle--> FINISHED --close--> FINISHED (no-op)
 *   |--close--> ABANDONED (file deleted) --close--> ABANDONED (no-op)
 * </pre>
 */
final class LocalStateFileWriter implements SnapshotFiles.StateFileWriter {
    private enum State { OPEN, FINISHED, ABANDONED }

    private final Path file;
    private final String handlePath;
    private final ChecksummingFileOutput out;
    private State state = State.OPEN;

    /** Creates {@code file}, which must not exist yet; {@code handlePath} is what the handle will carry. */
    LocalStateFileWriter(Path file, String handlePath) throws IOException {
        this.file = file;
        this.handlePath = handlePath;
        this.out = new ChecksummingFileOutput(FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
    }

    @Override
    public OutputStream stream() {
        return out;
    }

    @Override
    public long position() {
        return out.position();
    }

    @Override
    public StateHandle closeAndGetHandle() throws IOException {
        if (state != State.OPEN) {
            throw new IllegalStateException("state file " + handlePath + " is already " + state.name().toLowerCase());
        }
        try {
            out.sync();
            StateHandle handle = new StateHandle(handlePath, out.position(), out.crc32());
            out.release();
            state = State.FINISHED;
            return handle;
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        if (state == State.OPEN) {
            state = State.ABANDONED;
            try {
                out.release();
            } finally {
                Files.deleteIfExists(file);
            }
        }
    }
}
