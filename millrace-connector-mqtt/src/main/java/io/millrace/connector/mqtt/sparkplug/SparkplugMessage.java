package io.millrace.connector.mqtt.sparkplug;

import java.util.List;

/**
 * A Sparkplug B message decoded from its topic and protobuf payload, before aliases are resolved.
 *
 * @param group the group id of the topic {@code spBv1.0/<group>/<type>/<edge node>[/<device>]}
 * @param type the message type
 * @param edgeNode the edge node id
 * @param device the device id, or null for a node's own message
 * @param timestamp the payload's timestamp (epoch milliseconds), or -1 when it has none
 * @param seq the payload's sequence number, or -1 when it has none
 * @param metrics the metrics in the payload's order
 */
public record SparkplugMessage(String group, MessageType type, String edgeNode, String device, long timestamp, long seq,
        List<Metric> metrics) implements java.io.Serializable {
    public SparkplugMessage {
        metrics = List.copyOf(metrics);
    }

    /** The message types a source reads (commands and host state are refused as bad records). */
    public enum MessageType { NBIRTH, NDEATH, DBIRTH, DDEATH, NDATA, DDATA }

    /** The topic of this message: {@code spBv1.0/<group>/<type>/<edge node>[/<device>]}. */
    public String topic() {
        return SparkplugB.NAMESPACE + "/" + group + "/" + type + "/" + edgeNode + (device == null ? "" : "/" + device);
    }

    /** The key of the edge node: {@code <group>/<edge node>}; aliases are unique within it. */
    public String edgeNodeKey() {
        return group + "/" + edgeNode;
    }

    /**
     * A metric as sent: a name (births always, data messages often not), an alias or -1, its timestamp or -1, its
     * datatype code (0 when not sent), whether it is null, and its value: a Long (integer types, DateTime, UInt64
     * above 2^63 wraps), Double (Float and Double), Boolean, String (String, Text, UUID), byte[] (Bytes, File), or null
     * (null, or a DataSet, Template or PropertySet value, which are not decoded).
     */
    public record Metric(String name, long alias, long timestamp, int datatype, boolean isNull, Object value)
            implements java.io.Serializable {}
}
