package io.millrace.runtime.state.serde;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A schema dictionary in memory, written out with the data it describes (a heap snapshot writes one per
 * key-group section, so that each section can be restored alone). Uses are not recorded. Not
 * thread-safe: one per section being written or read.
 */
public final class ShapeTable implements ShapeDictionary {
    private final Map<Integer, StoredShape> shapes = new LinkedHashMap<>();

    @Override
    public void written(StoredShape shape, String use) {
        StoredShape known = shapes.putIfAbsent(shape.id(), shape);
        ShapeDictionary.checkSameShape(known, shape);
    }

    @Override
    public StoredShape find(int id) {
        return shapes.get(id);
    }

    /** Adds every shape of {@code other}. */
    public void addAll(ShapeTable other) {
        for (StoredShape s : other.shapes.values()) {
            written(s, null);
        }
    }

    /** Every shape held, in the order first written. */
    public java.util.Collection<StoredShape> shapes() {
        return java.util.Collections.unmodifiableCollection(shapes.values());
    }

    /** Number of shapes held. */
    public int size() {
        return shapes.size();
    }

    /** Writes every shape: {@code int count}, then per shape {@code int length, length bytes}. */
    public void writeTo(DataOutputStream out) throws IOException {
        out.writeInt(shapes.size());
        for (StoredShape s : shapes.values()) {
            byte[] bytes = s.encoded();
            out.writeInt(bytes.length);
            out.write(bytes);
        }
    }

    /** Adds the shapes that {@link #writeTo} wrote. */
    public void readFrom(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new StreamCorruptedException("negative number of type shapes: " + n);
        }
        for (int i = 0; i < n; i++) {
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            written(StoredShape.decode(bytes), null);
        }
    }
}
