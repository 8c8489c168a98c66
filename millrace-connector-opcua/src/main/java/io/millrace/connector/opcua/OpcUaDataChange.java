package io.millrace.connector.opcua;

import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import java.time.Instant;
import java.util.Objects;

/**
 * One value change of one monitored variable, as the server reported it. A value of bad or uncertain quality is a
 * data change like any other: its {@link #statusCode()} says so, and its {@link #value()} is what the server sent
 * with it (often null).
 *
 * @param nodeId the variable's node id in OPC UA's text form, e.g. {@code ns=2;s=Line1/Press/Temperature}
 * @param browseName the variable's browse name without its namespace index, e.g. {@code Temperature}
 * @param displayName the variable's display name text
 * @param value the value as a Java object (see {@link OpcUaValues} for the mapping of OPC UA types), or null
 * @param valueType the OPC UA built-in type of the value ({@code Double}, {@code Int32}, {@code Boolean},
 *     {@code String}...), or {@code Null} when there is no value
 * @param sourceTime the source timestamp (when the device sampled the value), or null when the server sent none
 * @param serverTime the server timestamp (when the server received the value), or null when it sent none
 * @param statusCode the OPC UA status code, 32 bits unsigned ({@code 0} is Good)
 * @param eventTime {@code sourceTime}, or {@code serverTime} when the server sent no source timestamp, or the
 *     time the change arrived when it sent neither; in milliseconds since the epoch
 */
public record OpcUaDataChange(
        String nodeId,
        String browseName,
        String displayName,
        Object value,
        String valueType,
        Instant sourceTime,
        Instant serverTime,
        long statusCode,
        long eventTime) implements OpcUaRecord {
    /**
     * The row form of a data change ({@link #toRow()}): {@code node_id}, {@code browse_name}, {@code display_name},
     * {@code value_type}, the value in the column of its kind ({@code value_double} for Float and Double,
     * {@code value_long} for the integer types, {@code value_boolean}, {@code value_string} for strings and the text of
     * any other value: ISO-8601 for a DateTime, Base64 for a ByteString), the others null; {@code source_time},
     * {@code server_time} (null when absent), {@code status_code}, {@code status} (its name) and {@code event_time}.
     */
    public static final RowType ROW_TYPE = RowType.builder()
            .field("node_id", FieldType.STRING)
            .field("browse_name", FieldType.STRING)
            .field("display_name", FieldType.STRING)
            .field("value_type", FieldType.STRING)
            .nullableField("value_double", FieldType.DOUBLE)
            .nullableField("value_long", FieldType.BIGINT)
            .nullableField("value_boolean", FieldType.BOOLEAN)
            .nullableField("value_string", FieldType.STRING)
            .nullableField("source_time", FieldType.TIMESTAMP)
            .nullableField("server_time", FieldType.TIMESTAMP)
            .field("status_code", FieldType.BIGINT)
            .field("status", FieldType.STRING)
            .field("event_time", FieldType.TIMESTAMP)
            .build();

    private static final long SEVERITY_MASK = 0xC0000000L;
    private static final long OVERFLOW_BIT = 0x80L;
    private static final long INFO_TYPE_DATA_VALUE = 0x400L;

    public OpcUaDataChange {
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(browseName, "browseName");
        Objects.requireNonNull(displayName, "displayName");
        Objects.requireNonNull(valueType, "valueType");
    }

    /** Good quality: the severity bits of the status code are 00. */
    public boolean isGood() {
        return (statusCode & SEVERITY_MASK) == 0;
    }

    /** Uncertain quality: severity 01. */
    public boolean isUncertain() {
        return (statusCode & SEVERITY_MASK) == 0x40000000L;
    }

    /** Bad quality: severity 10 (or 11). */
    public boolean isBad() {
        return (statusCode & 0x80000000L) != 0;
    }

    /**
     * The server's queue for this variable overflowed around this value: changes of this variable were discarded
     * because more happened between two publishes than the queue holds, or the job (or the network) did not keep up.
     * See the option {@code queueSize}.
     */
    public boolean overflow() {
        return (statusCode & INFO_TYPE_DATA_VALUE) != 0 && (statusCode & OVERFLOW_BIT) != 0;
    }

    /** The symbolic name of the status code ({@code Good}, {@code Bad_SensorFailure}...), or its hex value. */
    public String statusName() {
        return OpcUaValues.statusName(statusCode);
    }

    /** The value as a double: numbers widened, booleans as 0 or 1; null when there is no value or it is not numeric. */
    public Double doubleValue() {
        return OpcUaValues.asDouble(value);
    }

    /** This change as a row of {@link #ROW_TYPE}. */
    public Row toRow() {
        Double d = value instanceof Double || value instanceof Float ? ((Number) value).doubleValue() : null;
        Long l = value instanceof Integer || value instanceof Long ? ((Number) value).longValue() : null;
        Boolean b = value instanceof Boolean bool ? bool : null;
        String text = null;
        if (value instanceof byte[] bytes) {
            text = java.util.Base64.getEncoder().encodeToString(bytes);
        } else if (value != null && d == null && l == null && b == null) {
            text = value.toString();
        }
        return Row.of(ROW_TYPE, nodeId, browseName, displayName, valueType, d, l, b, text,
                sourceTime == null ? null : sourceTime.toEpochMilli(), serverTime == null ? null : serverTime.toEpochMilli(),
                statusCode, statusName(), eventTime);
    }
}
