package io.millrace.runtime.broadcast;

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
import java.util.Map;

/**
 * The stored form of one broadcast state: an operator-state item of kind {@link VersionedBytes#BROADCAST_STATE},
 * in the state serializer's encoding, as keyed state is stored, so that it needs no Java serialization for the
 * values that encoding covers, lets record classes evolve, and reads the same whatever the state backend.
 *
 * <pre>
 *   version 1:
 *     UTF   the state's name
 *     the type shapes of the entries   ({@link ShapeTable#writeTo})
 *     int   number of entries
 *     per entry: key ({@link StateSerializer#forKeys}), value ({@link StateSerializer#forValues}), each self-delimiting
 * </pre>
 *
 * Called on the task thread, which snapshots and restores operator state.
 */
final class BroadcastStateCodec {
    static final int VERSION = 1;

    private BroadcastStateCodec() {}

    /** A decoded item: the state's name and entries. */
    record Decoded(String name, Map<Object, Object> entries) {}

    static VersionedBytes encode(String name, Map<?, ?> entries, String operatorName) throws IOException {
        String context = "broadcast state '" + name + "' of operator '" + operatorName + "'";
        ShapeTable shapes = new ShapeTable();
        ClassLoader loader = StateSerializer.userClassLoader();
        StateSerializer keys = StateSerializer.forKeys(shapes, loader, context);
        StateSerializer values = StateSerializer.forValues(shapes, name, loader, context);
        ByteWriter body = new ByteWriter(64 + 32 * entries.size());
        for (Map.Entry<?, ?> e : entries.entrySet()) {
            try {
                keys.write(e.getKey(), body);
                values.write(e.getValue(), body);
            } catch (IllegalArgumentException | IllegalStateException failure) {
                throw new IOException(context + ": cannot store the entry of key " + e.getKey() + ": " + failure.getMessage(), failure);
            }
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(body.size() + 64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(name);
            shapes.writeTo(out);
            out.writeInt(entries.size());
            out.write(body.buffer(), 0, body.size());
        }
        return new VersionedBytes(VersionedBytes.BROADCAST_STATE, VERSION, bytes.toByteArray());
    }

    static Decoded decode(VersionedBytes item, String operatorName) throws IOException {
        if (item.version() < 1 || item.version() > VERSION) {
            throw new IOException("operator '" + operatorName + "': broadcast state stored in version " + item.version()
                    + "; this release reads versions 1 to " + VERSION + " (written by a newer release?)");
        }
        byte[] bytes = item.bytes();
        ByteArrayInputStream stream = new ByteArrayInputStream(bytes);
        DataInputStream in = new DataInputStream(stream);
        String name = in.readUTF();
        String context = "broadcast state '" + name + "' of operator '" + operatorName + "'";
        ShapeTable shapes = new ShapeTable();
        shapes.readFrom(in);
        int n = in.readInt();
        if (n < 0) {
            throw new IOException(context + ": negative number of entries " + n + " (damaged checkpoint?)");
        }
        int at = bytes.length - stream.available();
        ClassLoader loader = StateSerializer.userClassLoader();
        StateSerializer keys = StateSerializer.forKeys(shapes, loader, context);
        StateSerializer values = StateSerializer.forValues(shapes, name, loader, context);
        ByteReader reader = new ByteReader(bytes, at, bytes.length - at);
        Map<Object, Object> entries = new java.util.HashMap<>();
        try {
            for (int i = 0; i < n; i++) {
                Object key = keys.read(reader);
                entries.put(key, values.read(reader));
            }
        } catch (RuntimeException e) {
            throw new IOException(context + ": cannot read entry " + entries.size() + " of " + n + ": " + e.getMessage(), e);
        }
        if (reader.hasRemaining()) {
            throw new IOException(context + ": bytes left over after " + n + " entries (damaged checkpoint?)");
        }
        return new Decoded(name, entries);
    }
}
