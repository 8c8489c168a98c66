package io.millrace.connector.mqtt.sparkplug;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Writes protobuf's wire format: tags, varints, fixed 32 and 64-bit values and length-delimited fields. */
final class ProtobufWriter {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(64);

    void varintField(int field, long v) {
        tag(field, Protobuf.VARINT);
        varint(v);
    }

    void fixed32Field(int field, int v) {
        tag(field, Protobuf.FIXED32);
        fixed32(v);
    }

    void fixed64Field(int field, long v) {
        tag(field, Protobuf.FIXED64);
        fixed32((int) v);
        fixed32((int) (v >>> 32));
    }

    void bytesField(int field, byte[] b) {
        tag(field, Protobuf.LENGTH_DELIMITED);
        varint(b.length);
        out.write(b, 0, b.length);
    }

    void stringField(int field, String s) {
        bytesField(field, s.getBytes(StandardCharsets.UTF_8));
    }

    byte[] bytes() {
        return out.toByteArray();
    }

    private void tag(int field, int wireType) {
        varint((long) field << 3 | wireType);
    }

    private void varint(long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) (v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write((int) v);
    }

    private void fixed32(int v) {
        out.write(v);
        out.write(v >>> 8);
        out.write(v >>> 16);
        out.write(v >>> 24);
    }
}
