package io.millrace.rocksdb;

import io.millrace.runtime.state.serde.ByteReader;
import io.millrace.runtime.state.serde.ByteWriter;
import io.millrace.runtime.state.serde.ShapeDictionary;
import io.millrace.runtime.state.serde.StateSerializer;
import io.millrace.runtime.state.serde.StoredShape;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rocksdb.RocksIterator;

/**
 * The schema dictionary of a RocksDB backend, inside the database: the reserved column family
 * {@value #COLUMN}, so that it travels with the data (full snapshots copy it into every key-group
 * section; a restore from the database's own files finds it there). Rows:
 *
 * <pre>
 *   [1][shape id: 4 bytes]              -> the {@link StoredShape} encoding
 *   [2][state name: string][shape id]   -> empty: values of that state hold the shape
 *   [3][shape id]                       -> empty: keys, map keys or namespaces hold the shape
 * </pre>
 *
 * Shape ids are hashes of the shapes, so dictionaries from several subtasks merge by copying rows.
 * Shapes read are cached. Task thread only.
 */
final class SchemaColumn implements ShapeDictionary {
    static final String COLUMN = "schema";
    static final int SHAPE = 1;
    private static final int VALUE_USE = 2;
    private static final int KEY_USE = 3;
    private static final byte[] EMPTY = new byte[0];

    private final BytesColumn bytes;
    private final Map<Integer, StoredShape> shapes = new HashMap<>();
    private final Set<String> usesWritten = new HashSet<>();

    SchemaColumn(BytesColumn bytes) {
        this.bytes = bytes;
    }

    BytesColumn bytes() {
        return bytes;
    }

    @Override
    public void written(StoredShape shape, String use) {
        StoredShape known = find(shape.id());
        ShapeDictionary.checkSameShape(known, shape);
        if (known == null) {
            shapes.put(shape.id(), shape);
            bytes.put(shapeRow(shape.id()), shape.encoded());
        }
        if (usesWritten.add(use + "\u0000" + shape.id())) {
            bytes.put(useRow(use, shape.id()), EMPTY);
        }
    }

    @Override
    public StoredShape find(int id) {
        StoredShape s = shapes.get(id);
        if (s == null) {
            byte[] encoded = bytes.get(shapeRow(id));
            if (encoded != null) {
                s = StoredShape.decode(encoded);
                shapes.put(id, s);
            }
        }
        return s;
    }

    /**
     * Stores a row of a restored dictionary. Returns the state whose values use a shape when the row says
     * so ({@code ""} for keys), so that the caller can check the shape at once; null for a shape row.
     */
    String restore(byte[] key, byte[] value) {
        bytes.put(key, value);
        ByteReader in = new ByteReader(key, 0, key.length);
        int kind = in.readUnsignedByte();
        if (kind == SHAPE) {
            StoredShape shape = StoredShape.decode(value);
            ShapeDictionary.checkSameShape(find(in.readInt()), shape);
            shapes.put(shape.id(), shape);
            return null;
        }
        return kind == VALUE_USE ? in.readString() : "";
    }

    /** The shape id in a use row returned by {@link #restore}. */
    static int idOfUseRow(byte[] key) {
        return new ByteReader(key, key.length - 4, 4).readInt();
    }

    /**
     * Fails with a {@link io.millrace.runtime.state.serde.StateSchemaException} naming {@code context}
     * unless every shape stored for the values of {@code state} (or, with a null state, for keys) can be
     * read with the classes as they are now.
     */
    void check(String state, ClassLoader loader, String context) {
        for (int id : usedShapes(state)) {
            check(id, state == null, loader, context);
        }
    }

    void check(int id, boolean key, ClassLoader loader, String context) {
        StoredShape shape = find(id);
        if (shape == null) {
            throw new IllegalStateException("cannot restore " + context + ": the schema dictionary lists type shape "
                    + Integer.toHexString(id) + " but does not hold it");
        }
        StateSerializer.check(shape, key, loader, context);
    }

    /** Ids of the shapes stored for a state's values, or for keys when {@code state} is null. */
    List<Integer> usedShapes(String state) {
        ByteWriter prefix = new ByteWriter(32);
        prefix.writeByte(state == null ? KEY_USE : VALUE_USE);
        if (state != null) {
            prefix.writeString(state);
        }
        byte[] p = prefix.toByteArray();
        List<Integer> ids = new ArrayList<>();
        try (RocksIterator it = bytes.scan()) {
            for (it.seek(p); it.isValid() && StateColumn.startsWith(it.key(), p); it.next()) {
                if (it.key().length == p.length + 4) {
                    ids.add(idOfUseRow(it.key()));
                }
            }
            bytes.checkStatus(it);
        }
        return ids;
    }

    /** The row key of shape {@code id}: {@code [1][id]}. */
    static byte[] shapeRow(int id) {
        ByteWriter k = new ByteWriter(5);
        k.writeByte(SHAPE);
        k.writeInt(id);
        return k.toByteArray();
    }

    /** The row key saying that values of {@code state} (null: keys) hold shape {@code id}. */
    static byte[] useRow(String state, int id) {
        ByteWriter k = new ByteWriter(32);
        k.writeByte(state == null ? KEY_USE : VALUE_USE);
        if (state != null) {
            k.writeString(state);
        }
        k.writeInt(id);
        return k.toByteArray();
    }
}
