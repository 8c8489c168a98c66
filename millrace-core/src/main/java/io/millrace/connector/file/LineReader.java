package io.millrace.connector.file;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads UTF-8 lines from a byte offset of a file and knows the byte offset after each line. Lines end
 * with LF or CRLF; the last line may lack one. A UTF-8 byte order mark at offset 0 is skipped. The bytes
 * of the line returned last stay available ({@link #lastLineBytes}, {@link #malformedAt}) until the next
 * {@link #readLine}. Used by one thread.
 */
final class LineReader implements Closeable {
    private final SeekableByteChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
    private byte[] line = new byte[256];
    private long offset;
    private boolean eof;
    /** Bytes of the last line without its terminator, and the terminator's length (0 at the end of the file, 1 LF, 2 CRLF). */
    private int lastLength;
    private int lastTerminator;

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
                return decode(length, 0);
            }
            any = true;
            byte b = buffer.get();
            offset++;
            if (b == '\n') {
                if (length > 0 && line[length - 1] == '\r') {
                    return decode(length - 1, 2);
                }
                return decode(length, 1);
            }
            if (length == line.length) {
                line = Arrays.copyOf(line, length * 2);
            }
            line[length++] = b;
        }
    }

    private String decode(int length, int terminator) {
        lastLength = length;
        lastTerminator = terminator;
        return new String(line, 0, length, StandardCharsets.UTF_8);
    }

    /** A copy of the bytes of the line returned last, without its terminator. */
    byte[] lastLineBytes() {
        return Arrays.copyOf(line, lastLength);
    }

    /** Appends the bytes of the line returned last to {@code out}, with its terminator if {@code withTerminator}. */
    void appendLastLine(ByteArrayOutputStream out, boolean withTerminator) {
        out.write(line, 0, lastLength);
        if (withTerminator) {
            if (lastTerminator == 2) {
                out.write('\r');
            }
            if (lastTerminator >= 1) {
                out.write('\n');
            }
        }
    }

    /** The length of the terminator of the line returned last: 0 (end of the file), 1 (LF) or 2 (CRLF). */
    int lastTerminatorLength() {
        return lastTerminator;
    }

    /**
     * Where the line returned last stops being valid UTF-8: the 0-based index of the first byte of the first
     * malformed sequence, or -1 if it is valid. {@code text} is what {@link #readLine} returned for it; a line
     * without U+FFFD in its text is valid, so only lines with one are checked byte by byte.
     */
    int malformedAt(String text) {
        if (text.indexOf('\uFFFD') < 0) {
            return -1;
        }
        CharsetDecoder strict = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(line, 0, lastLength);
        CharBuffer out = CharBuffer.allocate(lastLength + 1);
        CoderResult result = strict.decode(in, out, true);
        return result.isError() ? in.position() : -1;
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
