package io.millrace.runtime.state;

import io.millrace.runtime.state.serde.ByteWriter;
import java.nio.charset.StandardCharsets;

/**
 * The encoding of sorted map keys ({@link io.millrace.api.state.SortedMapStateDescriptor}) whose unsigned byte
 * order is the keys' order, so that a backend of bytes scans a range of keys as a range of rows. A type byte,
 * then: an {@code Integer} as 4 and a {@code Long} as 8 big-endian bytes with the sign bit flipped; a
 * {@code String} as its UTF-8 bytes, unterminated (an encoded key is always the last part of a row key, so its
 * end is the row key's). All keys of one state have the same type, so the type byte does not disturb the order.
 */
public final class SortedKeyEncoding {
    static final int INT = 1;
    static final int LONG = 2;
    static final int STRING = 3;

    private SortedKeyEncoding() {}

    /**
     * Fails naming the state unless {@code key} is a non-null instance of {@code keyType} that the encoding
     * represents exactly (a string without unpaired surrogates).
     */
    public static void check(Object key, Class<?> keyType, String state) {
        if (key == null) {
            throw new NullPointerException("sorted map state '" + state + "' does not accept null keys");
        }
        if (key.getClass() != keyType) {
            throw new IllegalArgumentException("sorted map state '" + state + "' has keys of type " + keyType.getName()
                    + ", not " + key.getClass().getName() + " (key " + key + ")");
        }
        if (key instanceof String s) {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else if (Character.isSurrogate(c)) {
                    throw new IllegalArgumentException("sorted map state '" + state + "': key holds an unpaired surrogate"
                            + " at index " + i + ", which is not a Unicode character and has no place in the key order");
                }
            }
        }
    }

    /** Appends the encoding of a checked key. */
    public static void write(Object key, ByteWriter out) {
        if (key instanceof Long l) {
            out.writeByte(LONG);
            out.writeLong(l ^ Long.MIN_VALUE);
        } else if (key instanceof Integer i) {
            out.writeByte(INT);
            out.writeInt(i ^ Integer.MIN_VALUE);
        } else {
            out.writeByte(STRING);
            out.write(((String) key).getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The key encoded in {@code bytes[offset, offset + length)}. */
    public static Object read(byte[] bytes, int offset, int length) {
        int type = bytes[offset];
        switch (type) {
            case LONG:
                return bigEndian(bytes, offset + 1, 8) ^ Long.MIN_VALUE;
            case INT:
                return (int) bigEndian(bytes, offset + 1, 4) ^ Integer.MIN_VALUE;
            case STRING:
                return new String(bytes, offset + 1, length - 1, StandardCharsets.UTF_8);
            default:
                throw new IllegalStateException("not a sorted map key: type byte " + type);
        }
    }

    private static long bigEndian(byte[] bytes, int at, int n) {
        long v = 0;
        for (int i = at; i < at + n; i++) {
            v = (v << 8) | (bytes[i] & 0xFF);
        }
        return v;
    }
}
