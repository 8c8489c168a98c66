package io.millrace.runtime.async;

import io.millrace.runtime.checkpoint.VersionedBytes;
import io.millrace.runtime.state.serde.ByteReader;
import io.millrace.runtime.state.serde.ByteWriter;
import io.millrace.runtime.state.serde.ShapeTable;
import io.millrace.runtime.state.serde.StateSerializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;

/**
 * The checkpoint form of a record in flight in an async operator: one {@link VersionedBytes} item of kind
 * {@link VersionedBytes#ASYNC_REQUEST} per record, so that the items can be spread over another number of subtasks
 * at restore. Version 1:
 *
 * <pre>
 *   type shapes ({@link ShapeTable#writeTo}), long timestamp, int length, the record ({@link StateSerializer#forValues})
 * </pre>
 *
 * Each item carries the shapes of its own record, so that record classes may evolve as keyed state's do.
 */
final class InFlightCodec {
    static final int VERSION = 1;

    private InFlightCodec() {}

    static VersionedBytes encode(Object value, long timestamp, String operator) {
        ShapeTable shapes = new ShapeTable();
        StateSerializer serializer = StateSerializer.forValues(shapes, "in-flight", StateSerializer.userClassLoader(),
                "an in-flight record of operator '" + operator + "'");
        ByteWriter record = new ByteWriter(64);
        serializer.write(value, record);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(record.size() + 32);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            shapes.writeTo(out);
            out.writeLong(timestamp);
            out.writeInt(record.size());
            out.write(record.buffer(), 0, record.size());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new VersionedBytes(VersionedBytes.ASYNC_REQUEST, VERSION, bytes.toByteArray());
    }

    /** A decoded record and its timestamp. */
    record InFlight(Object value, long timestamp) {}

    static InFlight decode(Serializable item) throws IOException {
        if (!(item instanceof VersionedBytes v) || v.kind() != VersionedBytes.ASYNC_REQUEST) {
            throw new IOException("the state of an async operator holds an item that is not an in-flight record: "
                    + (item instanceof VersionedBytes v ? "kind " + v.kind() : item == null ? "null" : item.getClass().getName())
                    + "; was the operator's uid given to another operator?");
        }
        if (v.version() != VERSION) {
            throw new IOException("an in-flight record of an async operator has format version " + v.version()
                    + "; this release reads version " + VERSION);
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(v.bytes()));
        ShapeTable shapes = new ShapeTable();
        shapes.readFrom(in);
        long timestamp = in.readLong();
        byte[] record = new byte[in.readInt()];
        in.readFully(record);
        StateSerializer serializer = StateSerializer.forValues(shapes, null, StateSerializer.userClassLoader(),
                "an in-flight record of an async operator");
        return new InFlight(serializer.read(new ByteReader(record, 0, record.length)), timestamp);
    }
}
