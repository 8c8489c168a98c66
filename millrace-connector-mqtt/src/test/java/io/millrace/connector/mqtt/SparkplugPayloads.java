package io.millrace.connector.mqtt;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes Sparkplug B payloads in the layout of the specification's {@code sparkplug_b.proto} (Payload: timestamp 1,
 * metrics 2, seq 3; Metric: name 1, alias 2, timestamp 3, datatype 4, is_null 7, int_value 10, long_value 11,
 * float_value 12, double_value 13, boolean_value 14, string_value 15, bytes_value 16), for the tests.
 */
final class SparkplugPayloads {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    static SparkplugPayloads payload(long timestamp, long seq) {
        SparkplugPayloads p = new SparkplugPayloads();
        p.varintField(1, timestamp);
        p.varintField(3, seq);
        return p;
    }

    /** A metric: name (null for none), alias (-1 for none), datatype (0 for none), and a value of its type or null. */
    SparkplugPayloads metric(String name, long alias, int datatype, Object value) {
        SparkplugPayloads m = new SparkplugPayloads();
        if (name != null) {
            m.bytesField(1, name.getBytes(StandardCharsets.UTF_8));
        }
        if (alias >= 0) {
            m.varintField(2, alias);
        }
        if (datatype != 0) {
            m.varintField(4, datatype);
        }
        if (value == null) {
            m.varintField(7, 1);
        } else if (value instanceof Integer i) {
            m.varintField(10, i & 0xFFFF_FFFFL);   // uint32: the signed types in two's complement
        } else if (value instanceof Long l) {
            m.varintField(11, l);
        } else if (value instanceof Float f) {
            m.tag(12, 5);
            m.fixed32(Float.floatToIntBits(f));
        } else if (value instanceof Double d) {
            m.tag(13, 1);
            long bits = Double.doubleToLongBits(d);
            m.fixed32((int) bits);
            m.fixed32((int) (bits >>> 32));
        } else if (value instanceof Boolean b) {
            m.varintField(14, b ? 1 : 0);
        } else if (value instanceof String s) {
            m.bytesField(15, s.getBytes(StandardCharsets.UTF_8));
        } else {
            throw new IllegalArgumentException("no Sparkplug value of " + value.getClass());
        }
        bytesField(2, m.bytes());
        return this;
    }

    byte[] bytes() {
        return out.toByteArray();
    }

    private void tag(int field, int wireType) {
        varint((long) field << 3 | wireType);
    }

    private void varintField(int field, long v) {
        tag(field, 0);
        varint(v);
    }

    private void bytesField(int field, byte[] b) {
        tag(field, 2);
        varint(b.length);
        out.write(b, 0, b.length);
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
