package io.millrace.connector.mqtt.sparkplug;

import io.millrace.format.FormatException;

/**
 * Reads protobuf's wire format: varints, fixed 32 and 64-bit fields and length-delimited fields, skipping fields
 * it is not asked for. Errors name the byte offset.
 */
final class Protobuf {
    static final int VARINT = 0;
    static final int FIXED64 = 1;
    static final int LENGTH_DELIMITED = 2;
    static final int FIXED32 = 5;

    private final byte[] bytes;
    private int pos;
    private final int end;
    private final String what;

    Protobuf(byte[] bytes, int from, int to, String what) {
        this.bytes = bytes;
        this.pos = from;
        this.end = to;
        this.what = what;
    }

    boolean atEnd() {
        return pos >= end;
    }

    int position() {
        return pos;
    }

    /** The next tag: field number times 8 plus the wire type. */
    int tag() {
        long t = varint();
        if (t <= 0 || t > Integer.MAX_VALUE) {
            throw error("a field tag of " + t);
        }
        return (int) t;
    }

    long varint() {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= end) {
                throw error("the bytes end inside a varint");
            }
            byte b = bytes[pos++];
            result |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return result;
            }
        }
        throw error("a varint longer than 10 bytes");
    }

    int fixed32() {
        need(4);
        int v = (bytes[pos] & 0xFF) | (bytes[pos + 1] & 0xFF) << 8 | (bytes[pos + 2] & 0xFF) << 16 | (bytes[pos + 3] & 0xFF) << 24;
        pos += 4;
        return v;
    }

    long fixed64() {
        long lo = fixed32() & 0xFFFF_FFFFL;
        long hi = fixed32() & 0xFFFF_FFFFL;
        return lo | hi << 32;
    }

    /** A length-delimited field's bounds: returns a reader of it and moves past it. */
    Protobuf nested(String name) {
        int length = length();
        Protobuf p = new Protobuf(bytes, pos, pos + length, name);
        pos += length;
        return p;
    }

    String string() {
        int length = length();
        try {
            String s = io.millrace.format.BytesDecoder.Utf8.decode(java.util.Arrays.copyOfRange(bytes, pos, pos + length));
            pos += length;
            return s;
        } catch (FormatException e) {
            throw error("a string that is not UTF-8");
        }
    }

    byte[] bytesField() {
        int length = length();
        byte[] b = java.util.Arrays.copyOfRange(bytes, pos, pos + length);
        pos += length;
        return b;
    }

    private int length() {
        long length = varint();
        if (length < 0 || length > end - pos) {
            throw error("a length of " + length + " where " + (end - pos) + " bytes are left");
        }
        return (int) length;
    }

    /** Skips a field of the given wire type. */
    void skip(int wireType) {
        switch (wireType) {
            case VARINT -> varint();
            case FIXED64 -> { need(8); pos += 8; }
            case LENGTH_DELIMITED -> pos += length();
            case FIXED32 -> { need(4); pos += 4; }
            default -> throw error("wire type " + wireType + ", which this reader does not know");
        }
    }

    void expect(int tag, int wireType) {
        if ((tag & 7) != wireType) {
            throw error("field " + (tag >>> 3) + " has wire type " + (tag & 7) + ", expected " + wireType);
        }
    }

    private void need(int n) {
        if (end - pos < n) {
            throw error("the bytes end early (" + n + " needed, " + (end - pos) + " left)");
        }
    }

    FormatException error(String problem) {
        return new FormatException("Sparkplug B " + what + " at byte " + pos + ": " + problem);
    }
}
