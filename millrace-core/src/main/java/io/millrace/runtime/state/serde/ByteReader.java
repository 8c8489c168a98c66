package io.millrace.runtime.state.serde;

/** Reads what a {@link ByteWriter} wrote, from a byte array and a position. Not thread-safe. */
public final class ByteReader {
    private byte[] buf;
    private int pos;
    private int limit;

    /** A reader of nothing; {@link #reset} points it at bytes. */
    public ByteReader() {
        this(new byte[0], 0, 0);
    }

    public ByteReader(byte[] bytes, int offset, int length) {
        reset(bytes, offset, length);
    }

    /** Reads {@code length} bytes of {@code bytes} from {@code offset}. */
    public ByteReader reset(byte[] bytes, int offset, int length) {
        this.buf = bytes;
        this.pos = offset;
        this.limit = offset + length;
        return this;
    }

    public int position() {
        return pos;
    }

    public boolean hasRemaining() {
        return pos < limit;
    }

    public int readByte() {
        check(1);
        return buf[pos++];
    }

    public int readUnsignedByte() {
        return readByte() & 0xFF;
    }

    public int readShort() {
        check(2);
        int v = ((buf[pos] & 0xFF) << 8) | (buf[pos + 1] & 0xFF);
        pos += 2;
        return (short) v;
    }

    public int readInt() {
        check(4);
        int v = ((buf[pos] & 0xFF) << 24) | ((buf[pos + 1] & 0xFF) << 16) | ((buf[pos + 2] & 0xFF) << 8) | (buf[pos + 3] & 0xFF);
        pos += 4;
        return v;
    }

    public long readLong() {
        check(8);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (buf[pos + i] & 0xFF);
        }
        pos += 8;
        return v;
    }

    public int readVarInt() {
        int v = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            int b = readByte();
            v |= (b & 0x7F) << shift;
            if (b >= 0) {
                return v;
            }
        }
        throw new IllegalStateException("malformed variable-length int at byte " + pos);
    }

    public long readVarLong() {
        long z = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            int b = readByte();
            z |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return (z >>> 1) ^ -(z & 1);
            }
        }
        throw new IllegalStateException("malformed variable-length long at byte " + pos);
    }

    public byte[] readBytes(int length) {
        check(length);
        byte[] out = new byte[length];
        System.arraycopy(buf, pos, out, 0, length);
        pos += length;
        return out;
    }

    /** Decodes {@code length} bytes of UTF-8 as a string. */
    public String readUtf8(int length) {
        check(length);
        String s = new String(buf, pos, length, java.nio.charset.StandardCharsets.UTF_8);
        pos += length;
        return s;
    }

    /** Reads a string written by {@link ByteWriter#writeString}. */
    public String readString() {
        return readUtf8(readVarInt());
    }

    public void skip(int length) {
        check(length);
        pos += length;
    }

    private void check(int n) {
        if (n < 0 || pos + n > limit) {
            throw new IllegalStateException("serialized data ends early: need " + n + " bytes at " + pos + ", limit " + limit);
        }
    }
}
