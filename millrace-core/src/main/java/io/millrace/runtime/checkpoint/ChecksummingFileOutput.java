package io.millrace.runtime.checkpoint;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32;

/**
 * A buffered output stream to a file that knows its position and the CRC-32 of everything written. The
 * checksum is updated once per drained buffer (not per byte), so a {@code DataOutputStream} on top costs
 * no more than an ordinary buffered stream. Used by one thread at a time; not thread-safe.
 */
final class ChecksummingFileOutput extends OutputStream {
    private static final int BUFFER_SIZE = 64 * 1024;

    private final FileChannel channel;
    private final byte[] buffer = new byte[BUFFER_SIZE];
    private final CRC32 crc = new CRC32();
    private int buffered;
    private long drained;
    private boolean released;

    ChecksummingFileOutput(FileChannel channel) {
        this.channel = channel;
    }

    /** Bytes written so far, buffered or not. */
    long position() {
        return drained + buffered;
    }

    /** The CRC-32 of all bytes written so far; drains the buffer first. */
    long crc32() throws IOException {
        drain();
        return crc.getValue();
    }

    @Override
    public void write(int b) throws IOException {
        if (buffered == BUFFER_SIZE) {
            drain();
        }
        buffer[buffered++] = (byte) b;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        if (length <= BUFFER_SIZE - buffered) {
            System.arraycopy(bytes, offset, buffer, buffered, length);
            buffered += length;
            return;
        }
        drain();
        if (length < BUFFER_SIZE) {
            System.arraycopy(bytes, offset, buffer, 0, length);
            buffered = length;
        } else {
            crc.update(bytes, offset, length);
            writeFully(ByteBuffer.wrap(bytes, offset, length));
            drained += length;
        }
    }

    /** Drains the buffer to the file (no fsync: that is {@link #sync}). */
    @Override
    public void flush() throws IOException {
        drain();
    }

    /** Drains the buffer and forces the file's content and length to the device. */
    void sync() throws IOException {
        drain();
        channel.force(true);
    }

    /**
     * Only drains: closing a stream wrapped around this one (a {@code DataOutputStream} in a
     * try-with-resources) must not end the file. The owning writer finishes it with {@link #release}.
     */
    @Override
    public void close() throws IOException {
        if (!released) {
            drain();
        }
    }

    /** Closes the file without draining what is still buffered; idempotent. */
    void release() throws IOException {
        if (!released) {
            released = true;
            channel.close();
        }
    }

    private void drain() throws IOException {
        if (buffered > 0) {
            if (released) {
                throw new IOException("state file is already finished");
            }
            crc.update(buffer, 0, buffered);
            writeFully(ByteBuffer.wrap(buffer, 0, buffered));
            drained += buffered;
            buffered = 0;
        }
    }

    private void writeFully(ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }
}
