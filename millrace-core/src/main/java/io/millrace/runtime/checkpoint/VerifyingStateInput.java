package io.millrace.runtime.checkpoint;

import io.millrace.runtime.state.StateHandle;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;

/**
 * Reads a state file back and checks it against its handle: the length when opened, and the CRC-32 when
 * the end of the file is reached. {@link #skip} moves forward without reading (restoring a range of key
 * groups jumps to their offset); a stream that skipped, or that is closed before its end, cannot check
 * the CRC — which is why the storage verifies whole files before it hands out a checkpoint. Used by one
 * thread; not thread-safe.
 */
final class VerifyingStateInput extends InputStream {
    private static final int BUFFER_SIZE = 64 * 1024;

    private final FileChannel channel;
    private final String displayName;
    private final StateHandle handle;
    private final CRC32 crc = new CRC32();
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_SIZE).limit(0);
    private long filled;
    private boolean skipped;
    private boolean verified;

    /** Takes over {@code channel}; fails naming {@code displayName} if the file's length is not the handle's. */
    VerifyingStateInput(FileChannel channel, String displayName, StateHandle handle) throws IOException {
        this.channel = channel;
        this.displayName = displayName;
        this.handle = handle;
        long length = channel.size();
        if (length != handle.size()) {
            channel.close();
            throw new CheckpointFileDamagedException(displayName, "size mismatch: expected " + handle.size() + " bytes, found " + length);
        }
    }

    @Override
    public int read() throws IOException {
        if (!buffer.hasRemaining() && !fill()) {
            return -1;
        }
        return buffer.get() & 0xFF;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (!buffer.hasRemaining() && !fill()) {
            return -1;
        }
        int n = Math.min(length, buffer.remaining());
        buffer.get(bytes, offset, n);
        return n;
    }

    @Override
    public int available() {
        return buffer.remaining();
    }

    /** Moves forward by up to {@code n} bytes without reading them; the CRC is then no longer checked. */
    @Override
    public long skip(long n) throws IOException {
        if (n <= 0) {
            return 0;
        }
        if (n <= buffer.remaining()) {
            buffer.position(buffer.position() + (int) n);
            return n;
        }
        long position = filled - buffer.remaining();
        long target = Math.min(handle.size(), position + n);
        skipped = true;
        buffer.limit(0);
        filled = target;
        channel.position(target);
        return target - position;
    }

    /** Reads the rest of the file without handing it out, checking length and (if nothing was skipped) CRC. */
    void verifyToEnd() throws IOException {
        buffer.limit(0);
        while (fill()) {
            buffer.limit(0);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /** Opens {@code file} for {@code handle}; a missing file fails as damaged, naming {@code displayName}. */
    static VerifyingStateInput open(Path file, String displayName, StateHandle handle) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new CheckpointFileDamagedException(displayName, "missing", e);
        }
        return new VerifyingStateInput(channel, displayName, handle);
    }

    /** Refills the buffer; false at the end of the file, after checking it. */
    private boolean fill() throws IOException {
        buffer.clear();
        int n;
        do {
            n = channel.read(buffer);
        } while (n == 0);
        buffer.flip();
        if (n < 0) {
            verifyAtEnd();
            return false;
        }
        crc.update(buffer.array(), 0, n);
        filled += n;
        if (filled > handle.size()) {
            throw new CheckpointFileDamagedException(displayName, "size mismatch: expected " + handle.size() + " bytes, found more");
        }
        return true;
    }

    private void verifyAtEnd() throws IOException {
        if (verified) {
            return;
        }
        if (filled != handle.size()) {
            throw new CheckpointFileDamagedException(displayName, "size mismatch: expected " + handle.size() + " bytes, found " + filled);
        }
        if (!skipped && crc.getValue() != handle.crc32()) {
            throw new CheckpointFileDamagedException(displayName, "CRC mismatch");
        }
        verified = true;
    }
}
