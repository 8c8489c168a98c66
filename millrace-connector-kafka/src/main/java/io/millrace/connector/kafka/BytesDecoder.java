package io.millrace.connector.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Turns the bytes of a key or value into a Java value. Called on the source subtask's thread. A decoder throws when
 * the bytes are not what it expects; the source then applies its bad-record policy to the record. {@code null}
 * bytes (no key, a tombstone) reach the decoder as null.
 */
@FunctionalInterface
public interface BytesDecoder<V> extends java.io.Serializable {
    V decode(byte[] bytes) throws Exception;

    /** The bytes as they are. */
    static BytesDecoder<byte[]> bytes() {
        return b -> b;
    }

    /** Strict UTF-8: malformed bytes are an error, not replaced. */
    static BytesDecoder<String> utf8() {
        return b -> {
            if (b == null) {
                return null;
            }
            try {
                return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString();
            } catch (CharacterCodingException e) {
                throw new IllegalArgumentException("not valid UTF-8 (" + e.getMessage() + ")");
            }
        };
    }

    /** A decimal number in UTF-8 text, as written by {@code String.valueOf(long)}. */
    static BytesDecoder<Long> decimalLongs() {
        BytesDecoder<String> text = utf8();
        return b -> {
            String s = text.decode(b);
            if (s == null) {
                return null;
            }
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a decimal number: '" + (s.length() > 40 ? s.substring(0, 40) + "…" : s) + "'");
            }
        };
    }
}
