package io.millrace.format;

import java.nio.charset.StandardCharsets;

/**
 * Turns a value into the bytes of a message (a Kafka key or value). Called on the sink subtask's thread, once per
 * value; a failure fails the sink with the value's position. Implementations are immutable and serializable.
 *
 * <p>Every {@link RowFormat} is an encoder of {@link io.millrace.api.row.Row}s.
 */
@FunctionalInterface
public interface BytesEncoder<V> extends java.io.Serializable {
    byte[] encode(V value) throws Exception;

    /** The bytes as they are (null stays null). */
    static BytesEncoder<byte[]> bytes() {
        return b -> b;
    }

    /** The value's text ({@code String.valueOf}) in UTF-8; null stays null. */
    static <V> BytesEncoder<V> utf8() {
        return v -> v == null ? null : String.valueOf(v).getBytes(StandardCharsets.UTF_8);
    }
}
