package io.millrace.connector.kafka;

/**
 * Turns the bytes of a key or value into a Java value: the format SPI's {@link io.millrace.format.BytesDecoder}, by
 * the name this connector first gave it. Everything that takes a decoder takes the format SPI's type.
 *
 * @deprecated use {@link io.millrace.format.BytesDecoder}, whose factories are the same.
 */
@Deprecated
@FunctionalInterface
public interface BytesDecoder<V> extends io.millrace.format.BytesDecoder<V> {
    /** The bytes as they are. */
    static BytesDecoder<byte[]> bytes() {
        return io.millrace.format.BytesDecoder.bytes()::decode;
    }

    /** Strict UTF-8: malformed bytes are an error, not replaced. */
    static BytesDecoder<String> utf8() {
        return io.millrace.format.BytesDecoder.utf8()::decode;
    }

    /** A decimal number in UTF-8 text, as written by {@code String.valueOf(long)}. */
    static BytesDecoder<Long> decimalLongs() {
        return io.millrace.format.BytesDecoder.decimalLongs()::decode;
    }
}
