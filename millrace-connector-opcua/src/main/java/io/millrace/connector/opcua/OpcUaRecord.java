package io.millrace.connector.opcua;

/**
 * What an {@link OpcUaSource} emits: a {@link OpcUaDataChange} for every value change the server reports, and an
 * {@link OpcUaGap} whenever the subscription had to be created anew (after a server restart, or when the server
 * dropped it), marking the time in which changes were not seen. Both are immutable.
 *
 * <pre>{@code
 * DataStream<OpcUaRecord> records = pipeline.fromSource(source, watermarks, "plc");
 * DataStream<OpcUaDataChange> values = records.filter(r -> r instanceof OpcUaDataChange).map(r -> (OpcUaDataChange) r);
 * }</pre>
 */
public sealed interface OpcUaRecord extends java.io.Serializable permits OpcUaDataChange, OpcUaGap {
    /** The record's event time in milliseconds since the epoch, the timestamp it is emitted with. */
    long eventTime();
}
