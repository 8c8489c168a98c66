package io.millrace.runtime.state.serde;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer, reused across writes to avoid allocating one per record: {@link #reset} and
 * write again. Multi-byte numbers are big-endian so that fixed-width encodings sort like unsigned
 * bytes. Not thread-safe: one per thread that writes.
 */
public final class ByteWriter {
    private byte[] buf;
    private int size;

    /** A writer whose buffer starts with room for {@code initialCapacity} bytes (at least 16). */
    public ByteWriter(int initialCapacity) {
        this.buf = new byte[Math.max(16, initialCapacity)];
    }

    public void reset() {
        size = 0;
    }

    public int size() {
        return size;
    }

    /** The internal buffer; only its first {@link #size()} bytes are meaningful. */
    public byte[] buffer() {
        return buf;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    public void writeByte(int b) {
        ensure(1);
        buf[size++] = (byte) b;
    }

    public void writeShort(int v) {
        ensure(2);
        buf[size++] = (byte) (v >>> 8);
        buf[size++] = (byte) v;
    }

    public void writeInt(int v) {
        ensure(4);
        buf[size++] = (byte) (v >>> 24);
        buf[size++] = (byte) (v >>> 16);
        buf[size++] = (byte) (v >>> 8);
        buf[size++] = (byte) v;
    }

    public void writeLong(long v) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buf[size++] = (byte) (v >>> shift);
        }
    }

    /** An unsigned variable-length int: 7 bits per byte, high bit set on all but the last byte. */
    public void writeVarInt(int v) {
        ensure(5);
        while ((v & ~0x7F) != 0) {
            buf[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[size++] = (byte) v;
    }

    /** A signed long as a zig-zag variable-length number: small magnitudes take few bytes. */
    public void writeVarLong(long v) {
        ensure(10);
        long z = (v << 1) ^ (v >> 63);
        while ((z & ~0x7FL) != 0) {
            buf[size++] = (byte) ((z & 0x7F) | 0x80);
            z >>>= 7;
        }
        buf[size++] = (byte) z;
    }

    /** A string as its UTF-8 length (variable-length int) and bytes; ASCII strings are copied without encoding. */
    public void writeString(String s) {
        int n = s.length();
        boolean ascii = true;
        for (int i = 0; i < n && ascii; i++) {
            ascii = s.charAt(i) < 0x80;
        }
        if (!ascii) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            writeVarInt(utf8.length);
            write(utf8);
            return;
        }
        writeVarInt(n);
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[size++] = (byte) s.charAt(i);
        }
    }

    public void write(byte[] bytes) {
        write(bytes, 0, bytes.length);
    }

    public void write(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, buf, size, length);
        size += length;
    }

    private void ensure(int extra) {
        if (size + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + extra));
        }
    }
}
