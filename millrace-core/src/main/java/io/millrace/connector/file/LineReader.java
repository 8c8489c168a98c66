package io.millrace.connector.file;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads UTF-8 lines from a byte offset of a file and knows the byte offset after each line. Lines end
 * with LF or CRLF; the last line may lack one. A UTF-8 byte order mark at offset 0 is skipped. Used by
 * one thread.
 */
final class LineReader implements Closeable {
    private final SeekableByteChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
    private byte[] line = new byte[256];
    private long offset;
    private boolean eof;

    LineReader(Path path, long offset) throws IOException {
        this.channel = Files.newByteChannel(path);
        channel.position(offset);
        this.offset = offset;
        buffer.flip();
        if (offset == 0) {
            skipByteOrderMark();
        }
    }

    /** The byte offset just after the last line returned. */
    long offset() {
        return offset;
    }

    /** The next line without its terminator, or null at the end of the file. */
    String readLine() throws IOException {
        int length = 0;
        boolean any = false;
        while (true) {
            if (!buffer.hasRemaining() && !fill()) {
                if (!any) {
                    return null;
                }
                return decode(length);
            }
            any = true;
            byte b = buffer.get();
            offset++;
            if (b == '\n') {
                if (length > 0 && line[length - 1] == '\r') {
                    length--;
                }
                return decode(length);
            }
            if (length == line.length) {
                line = Arrays.copyOf(line, length * 2);
            }
            line[length++] = b;
        }
    }

    private String decode(int length) {
        return new String(line, 0, length, StandardCharsets.UTF_8);
    }

    private boolean fill() throws IOException {
        if (eof) {
            return false;
        }
        buffer.clear();
        int n;
        do {
            n = channel.read(buffer);
        } while (n == 0);
        buffer.flip();
        if (n < 0) {
            eof = true;
            return false;
        }
        return true;
    }

    private void skipByteOrderMark() throws IOException {
        boolean more = true;
        while (buffer.remaining() < 3 && more) {
            more = fillMore();
        }
        if (buffer.remaining() >= 3
                && buffer.get(buffer.position()) == (byte) 0xEF
                && buffer.get(buffer.position() + 1) == (byte) 0xBB
                && buffer.get(buffer.position() + 2) == (byte) 0xBF) {
            buffer.position(buffer.position() + 3);
            offset += 3;
        }
    }

    /** Appends to the buffered bytes; false at the end of the file. */
    private boolean fillMore() throws IOException {
        buffer.compact();
        int n = channel.read(buffer);
        buffer.flip();
        if (n < 0) {
            eof = true;
            return false;
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
