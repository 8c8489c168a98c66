package io.millrace.connector.opcua;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.eclipse.milo.opcua.stack.core.OpcUaDataType;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.UaEnumeratedType;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExpandedNodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.XmlElement;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UByte;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.ULong;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UShort;

/**
 * How OPC UA values become Java values in an {@link OpcUaDataChange}.
 *
 * <table>
 *   <caption>OPC UA built-in types and their Java types</caption>
 *   <tr><th>OPC UA</th><th>Java</th></tr>
 *   <tr><td>Boolean</td><td>{@link Boolean}</td></tr>
 *   <tr><td>SByte, Byte, Int16, UInt16, Int32, enumerations</td><td>{@link Integer}</td></tr>
 *   <tr><td>UInt32, Int64, UInt64 (up to 2<sup>63</sup>-1)</td><td>{@link Long}</td></tr>
 *   <tr><td>Float / Double</td><td>{@link Float} / {@link Double}</td></tr>
 *   <tr><td>String, XmlElement, LocalizedText (its text), QualifiedName (its name), NodeId, ExpandedNodeId</td><td>{@link String}</td></tr>
 *   <tr><td>DateTime</td><td>{@link Instant}</td></tr>
 *   <tr><td>Guid</td><td>{@link UUID}</td></tr>
 *   <tr><td>ByteString</td><td>{@code byte[]}</td></tr>
 *   <tr><td>StatusCode</td><td>{@link Long}</td></tr>
 *   <tr><td>one-dimensional arrays of the above</td><td>an unmodifiable {@link List}</td></tr>
 * </table>
 *
 * Anything else (structures, matrices, a UInt64 above 2<sup>63</sup>-1) cannot be converted: the change follows
 * the source's bad-record policy, with the value's text as the raw bytes and the node id as its location.
 */
public final class OpcUaValues {
    private OpcUaValues() {}

    /** The Java value of an OPC UA variant's content; throws {@link IllegalArgumentException} naming what it cannot convert. */
    static Object toJava(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof Boolean || v instanceof Double || v instanceof Float || v instanceof String || v instanceof Integer
                || v instanceof Long || v instanceof UUID) {
            return v;
        }
        if (v instanceof Byte b) {
            return (int) b;
        }
        if (v instanceof Short s) {
            return (int) s;
        }
        if (v instanceof UByte || v instanceof UShort) {
            return ((Number) v).intValue();
        }
        if (v instanceof UInteger u) {
            return u.longValue();
        }
        if (v instanceof ULong u) {
            if (u.toBigInteger().bitLength() > 63) {
                throw new IllegalArgumentException("the UInt64 value " + u + " does not fit a signed 64-bit long");
            }
            return u.longValue();
        }
        if (v instanceof DateTime t) {
            return t.getJavaInstant();
        }
        if (v instanceof ByteString b) {
            return b.bytesOrEmpty();
        }
        if (v instanceof LocalizedText t) {
            return t.text();
        }
        if (v instanceof QualifiedName q) {
            return q.name();
        }
        if (v instanceof NodeId n) {
            return n.toParseableString();
        }
        if (v instanceof ExpandedNodeId n) {
            return n.toParseableString();
        }
        if (v instanceof XmlElement x) {
            return x.fragment();
        }
        if (v instanceof StatusCode s) {
            return s.value();
        }
        if (v instanceof UaEnumeratedType e) {
            return e.getValue();
        }
        if (v.getClass().isArray() && !v.getClass().getComponentType().isArray()) {
            int n = java.lang.reflect.Array.getLength(v);
            List<Object> list = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                list.add(toJava(java.lang.reflect.Array.get(v, i)));
            }
            return Collections.unmodifiableList(list);
        }
        throw new IllegalArgumentException("values of type " + typeName(new Variant(v)) + " (" + v.getClass().getSimpleName()
                + ") are not supported");
    }

    /** The OPC UA built-in type of a variant's value, with {@code []} for an array; {@code Null} when it is empty. */
    static String typeName(Variant variant) {
        Object v = variant.value();
        if (v == null) {
            return "Null";
        }
        String base = variant.getDataType().map(OpcUaDataType::name).orElse(v.getClass().getSimpleName());
        return v.getClass().isArray() ? base + "[]" : base;
    }

    /** The symbolic name of a status code: {@code Good}, {@code Bad_SensorFailure}..., or {@code 0x...} when unknown. */
    public static String statusName(long statusCode) {
        if ((statusCode & 0xFFFF0000L) == 0) {
            return "Good";
        }
        return StatusCodes.lookup(statusCode).map(d -> d[0]).orElse(String.format("0x%08X", statusCode));
    }

    static Double asDouble(Object value) {
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        if (value instanceof Boolean b) {
            return b ? 1.0 : 0.0;
        }
        return null;
    }
}
