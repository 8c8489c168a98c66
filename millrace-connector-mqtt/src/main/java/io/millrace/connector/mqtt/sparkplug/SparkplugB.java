package io.millrace.connector.mqtt.sparkplug;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.RowType;
import io.millrace.connector.mqtt.MqttMessageDeserializer;
import io.millrace.format.FormatException;
import java.util.ArrayList;
import java.util.List;

/**
 * Sparkplug B (Eclipse Sparkplug 3.0) over the MQTT source: {@link #messages()} decodes topic and protobuf payload of
 * NBIRTH, DBIRTH, NDATA, DDATA, NDEATH and DDEATH messages (anything else is a bad record of the source), and
 * {@link SparkplugMetrics}, keyed by {@link SparkplugMessage#edgeNodeKey()}, resolves aliases from the births and emits
 * one {@link #METRIC} row per metric, marking a node's or device's metrics stale when it dies.
 */
public final class SparkplugB {
    /** The topic namespace of Sparkplug B. */
    public static final String NAMESPACE = "spBv1.0";

    /** One row per metric. */
    public static final RowType METRIC = RowType.builder()
            .field("group_id", FieldType.STRING)
            .field("edge_node", FieldType.STRING)
            .nullableField("device", FieldType.STRING)
            .field("message_type", FieldType.STRING)
            .nullableField("metric", FieldType.STRING)
            .nullableField("alias", FieldType.BIGINT)
            .field("datatype", FieldType.STRING)
            .nullableField("at", FieldType.TIMESTAMP)
            .nullableField("seq", FieldType.BIGINT)
            .field("is_null", FieldType.BOOLEAN)
            .field("stale", FieldType.BOOLEAN)
            .nullableField("long_value", FieldType.BIGINT)
            .nullableField("double_value", FieldType.DOUBLE)
            .nullableField("boolean_value", FieldType.BOOLEAN)
            .nullableField("string_value", FieldType.STRING)
            .build();

    private SparkplugB() {}

    /** Decodes Sparkplug B messages; subscribe the source to {@code spBv1.0/<group>/#} or {@code spBv1.0/#}. */
    public static MqttMessageDeserializer<SparkplugMessage> messages() {
        return m -> decode(m.topic(), m.payload());
    }

    /** The datatype's name in the specification ({@code Int32}, {@code Double}...), or {@code Unknown(<code>)}. */
    public static String datatypeName(int code) {
        String[] names = {"Unknown", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "Float", "Double",
                "Boolean", "String", "DateTime", "Text", "UUID", "DataSet", "Bytes", "File", "Template", "PropertySet",
                "PropertySetList"};
        return code >= 0 && code < names.length ? names[code] : "Unknown(" + code + ")";
    }

    /** Decodes one message; fails with a {@link FormatException} naming the topic level or the payload's byte. */
    public static SparkplugMessage decode(String topic, byte[] payload) {
        String[] levels = topic.split("/", -1);
        if (levels.length < 4 || levels.length > 5 || !levels[0].equals(NAMESPACE)) {
            throw new FormatException("topic '" + topic + "' is not " + NAMESPACE + "/<group>/<type>/<edge node>[/<device>]");
        }
        SparkplugMessage.MessageType type;
        try {
            type = SparkplugMessage.MessageType.valueOf(levels[2]);
        } catch (IllegalArgumentException e) {
            throw new FormatException("topic '" + topic + "': message type '" + levels[2] + "' is not one of NBIRTH, NDEATH, DBIRTH,"
                    + " DDEATH, NDATA, DDATA");
        }
        boolean deviceMessage = type == SparkplugMessage.MessageType.DBIRTH || type == SparkplugMessage.MessageType.DDEATH
                || type == SparkplugMessage.MessageType.DDATA;
        if (deviceMessage != (levels.length == 5)) {
            throw new FormatException("topic '" + topic + "': a " + type + " message " + (deviceMessage ? "needs" : "has no") + " a device id level");
        }
        Protobuf in = new Protobuf(payload, 0, payload.length, "payload");
        long timestamp = -1;
        long seq = -1;
        List<SparkplugMessage.Metric> metrics = new ArrayList<>();
        while (!in.atEnd()) {
            int tag = in.tag();
            switch (tag >>> 3) {
                case 1 -> { in.expect(tag, Protobuf.VARINT); timestamp = in.varint(); }
                case 2 -> { in.expect(tag, Protobuf.LENGTH_DELIMITED); metrics.add(metric(in.nested("metric " + (metrics.size() + 1)))); }
                case 3 -> { in.expect(tag, Protobuf.VARINT); seq = in.varint(); }
                default -> in.skip(tag & 7);
            }
        }
        return new SparkplugMessage(levels[1], type, levels[3], deviceMessage ? levels[4] : null, timestamp, seq, metrics);
    }

    /**
     * The protobuf payload of {@code message} in the layout {@link #decode} reads (the specification's
     * {@code sparkplug_b.proto}): the payload's timestamp and sequence number when not -1, and per metric its name
     * (when not null), alias and timestamp (when not -1), datatype (when not 0), {@code is_null}, and the value in
     * the field of its datatype: {@code Int8} to {@code UInt32} as {@code int_value} (two's complement), {@code Int64},
     * {@code UInt64} and {@code DateTime} as {@code long_value}, {@code Float}, {@code Double}, {@code Boolean},
     * {@code String}, {@code Text} and {@code UUID} as a string, {@code Bytes} and {@code File} as bytes. A metric
     * without a datatype takes the field of its value's Java type (Long, Double, Boolean, String, byte[]). The topic
     * to publish it to is {@link SparkplugMessage#topic()}.
     *
     * @throws IllegalArgumentException when a metric's value does not fit its datatype, naming the metric
     */
    public static byte[] encode(SparkplugMessage message) {
        ProtobufWriter out = new ProtobufWriter();
        if (message.timestamp() >= 0) {
            out.varintField(1, message.timestamp());
        }
        for (SparkplugMessage.Metric metric : message.metrics()) {
            out.bytesField(2, encode(metric));
        }
        if (message.seq() >= 0) {
            out.varintField(3, message.seq());
        }
        return out.bytes();
    }

    private static byte[] encode(SparkplugMessage.Metric m) {
        ProtobufWriter out = new ProtobufWriter();
        if (m.name() != null) {
            out.stringField(1, m.name());
        }
        if (m.alias() >= 0) {
            out.varintField(2, m.alias());
        }
        if (m.timestamp() >= 0) {
            out.varintField(3, m.timestamp());
        }
        if (m.datatype() != 0) {
            out.varintField(4, m.datatype());
        }
        Object v = m.value();
        if (m.isNull() || v == null) {
            out.varintField(7, 1);
            return out.bytes();
        }
        int datatype = m.datatype() != 0 ? m.datatype() : v instanceof Long ? 4 : v instanceof Double ? 10 : v instanceof Boolean ? 11
                : v instanceof String ? 12 : v instanceof byte[] ? 17 : 0;
        switch (datatype) {
            case 1, 2, 3, 5, 6, 7 -> out.varintField(10, number(m, v) & 0xFFFF_FFFFL);
            case 4, 8, 13 -> out.varintField(11, number(m, v));
            case 9 -> out.fixed32Field(12, Float.floatToIntBits((float) real(m, v)));
            case 10 -> out.fixed64Field(13, Double.doubleToLongBits(real(m, v)));
            case 11 -> out.varintField(14, v instanceof Boolean b ? (b ? 1 : 0) : mismatch(m, v));
            case 12, 14, 15 -> out.stringField(15, v instanceof String s ? s : String.valueOf(mismatch(m, v)));
            case 17, 18 -> out.bytesField(16, v instanceof byte[] b ? b : new byte[(int) mismatch(m, v)]);
            default -> mismatch(m, v);
        }
        return out.bytes();
    }

    private static long number(SparkplugMessage.Metric m, Object v) {
        return v instanceof Long l ? l : v instanceof Integer i ? i : mismatch(m, v);
    }

    private static double real(SparkplugMessage.Metric m, Object v) {
        return v instanceof Double d ? d : v instanceof Float f ? f : mismatch(m, v);
    }

    private static long mismatch(SparkplugMessage.Metric m, Object v) {
        throw new IllegalArgumentException("Sparkplug B metric " + (m.name() != null ? "'" + m.name() + "'" : "with alias " + m.alias())
                + ": a value of " + v.getClass().getSimpleName() + " cannot be written as " + datatypeName(m.datatype()));
    }

    private static SparkplugMessage.Metric metric(Protobuf in) {
        String name = null;
        long alias = -1;
        long timestamp = -1;
        int datatype = 0;
        boolean isNull = false;
        Object value = null;
        int valueField = 0;
        long raw = 0;
        while (!in.atEnd()) {
            int tag = in.tag();
            int field = tag >>> 3;
            switch (field) {
                case 1 -> { in.expect(tag, Protobuf.LENGTH_DELIMITED); name = in.string(); }
                case 2 -> { in.expect(tag, Protobuf.VARINT); alias = in.varint(); }
                case 3 -> { in.expect(tag, Protobuf.VARINT); timestamp = in.varint(); }
                case 4 -> { in.expect(tag, Protobuf.VARINT); datatype = (int) in.varint(); }
                case 7 -> { in.expect(tag, Protobuf.VARINT); isNull = in.varint() != 0; }
                case 10, 11, 14 -> { in.expect(tag, Protobuf.VARINT); raw = in.varint(); valueField = field; }
                case 12 -> { in.expect(tag, Protobuf.FIXED32); value = (double) Float.intBitsToFloat(in.fixed32()); valueField = field; }
                case 13 -> { in.expect(tag, Protobuf.FIXED64); value = Double.longBitsToDouble(in.fixed64()); valueField = field; }
                case 15 -> { in.expect(tag, Protobuf.LENGTH_DELIMITED); value = in.string(); valueField = field; }
                case 16 -> { in.expect(tag, Protobuf.LENGTH_DELIMITED); value = in.bytesField(); valueField = field; }
                default -> in.skip(tag & 7); // metadata, properties, DataSet, Template, extensions
            }
        }
        if (valueField == 10) {
            // int_value is a uint32: the signed types are stored in two's complement
            value = switch (datatype) {
                case 1 -> (long) (byte) raw;
                case 2 -> (long) (short) raw;
                case 3 -> (long) (int) raw;
                default -> raw & 0xFFFF_FFFFL;
            };
        } else if (valueField == 11) {
            value = raw;
        } else if (valueField == 14) {
            value = raw != 0;
        }
        return new SparkplugMessage.Metric(name, alias, timestamp, datatype, isNull, isNull ? null : value);
    }
}
