package io.millrace.format;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Turns the bytes of a message (a Kafka key or value, an MQTT payload) into a Java value. Called on the source
 * subtask's thread, once per message. A decoder throws when the bytes are not what it expects (a
 * {@link FormatException} naming the field and the problem, ideally); the source then applies its bad-record policy
 * to the message. {@code null} bytes (no key, a Kafka tombstone) reach the decoder as null. Implementations are
 * immutable and serializable, so that they travel with the source.
 *
 * <p>Every {@link RowFormat} is a decoder of {@link io.millrace.api.row.Row}s.
 */
@FunctionalInterface
public interface BytesDecoder<V> extends java.io.Serializable {
    V decode(byte[] bytes) throws Exception;

    /** The bytes as they are (null stays null). */
    static BytesDecoder<byte[]> bytes() {
        return b -> b;
    }

    /** Strict UTF-8: malformed bytes are a {@link FormatException} with the position of the first bad byte; null stays null. */
    static BytesDecoder<String> utf8() {
        return b -> b == null ? null : Utf8.decode(b);
    }

    /** A decimal number in UTF-8 text, as written by {@code String.valueOf(long)}; null stays null. */
    static BytesDecoder<Long> decimalLongs() {
        return b -> {
            if (b == null) {
                return null;
            }
            String s = Utf8.decode(b);
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                throw new FormatException("not a decimal number: " + Utf8.quoted(s));
            }
        };
    }

    /** Strict UTF-8 decoding shared by the text formats. */
    final class Utf8 {
        private Utf8() {}

        /** The text of {@code bytes}; fails naming the offset of the first byte that is not UTF-8. */
        public static String decode(byte[] bytes) {
            try {
                return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
            } catch (CharacterCodingException e) {
                throw new FormatException("not valid UTF-8: bad byte at offset " + firstBad(bytes) + " of " + bytes.length);
            }
        }

        private static int firstBad(byte[] bytes) {
            var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
            ByteBuffer in = ByteBuffer.wrap(bytes);
            java.nio.CharBuffer out = java.nio.CharBuffer.allocate(bytes.length + 1);
            decoder.decode(in, out, true);
            return in.position();
        }

        /** {@code text} in single quotes, cut at 40 characters, for error messages. */
        public static String quoted(String text) {
            return "'" + (text.length() > 40 ? text.substring(0, 40) + "…" : text) + "'";
        }
    }
}
