package io.millrace.runtime.state.heap;

import io.millrace.runtime.state.serde.ByteReader;
import io.millrace.runtime.state.serde.ByteWriter;
import io.millrace.runtime.state.serde.ShapeDictionary;
import io.millrace.runtime.state.serde.ShapeTable;
import io.millrace.runtime.state.serde.StateSerializer;
import io.millrace.runtime.state.serde.StoredShape;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Encodes and decodes the values of one state kept serialized on the heap ({@link ValueArena}), for all its key
 * groups, in the encoding of {@link StateSerializer#forValues}: a snapshot copies the bytes as they are, with the
 * shapes they use ({@link #copyShapesInto}).
 *
 * <p>Encoding and decoding happen on the thread that owns the state (the task thread; a restore before it), one
 * at a time. Only the shapes are read from another thread, by a checkpoint writer while the task adds to them,
 * so they are kept in a concurrent map.
 */
class ArenaCodec { // not final: a test codec refuses chosen values
    private final String state;
    private final Shapes shapes = new Shapes();
    private final StateSerializer writer;
    private final StateSerializer reader;
    private final ByteReader input = new ByteReader();
    private final ByteWriter scratch = new ByteWriter(256);

    ArenaCodec(String state) {
        this.state = state;
        ClassLoader loader = StateSerializer.userClassLoader();
        String context = "state '" + state + "'";
        this.writer = StateSerializer.forValues(shapes, state, loader, context);
        this.reader = StateSerializer.forValues(shapes, state, loader, context);
    }

    /**
     * Encodes {@code value} into a buffer reused by the next call; {@link #scratchSize} bytes of the returned
     * array are the encoding. Fails naming the state and the class when the value cannot be encoded.
     */
    byte[] scratch(Object value) {
        scratch.reset();
        try {
            writer.write(value, scratch);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot keep a " + value.getClass().getName() + " in state '" + state
                    + "' (state.heap.values: serialized): " + e.getMessage(), e);
        }
        return scratch.buffer();
    }

    int scratchSize() {
        return scratch.size();
    }

    /** Decodes {@code length} bytes of {@code bytes} from {@code offset}. */
    Object read(byte[] bytes, int offset, int length) {
        return reader.read(input.reset(bytes, offset, length));
    }

    /** Adds every shape this codec has written to {@code table}, which goes with bytes copied from the arena. Any thread. */
    void copyShapesInto(ShapeTable table) {
        for (StoredShape s : shapes.byId.values()) {
            table.written(s, state);
        }
    }

    /** Shapes, readable from any thread while the task thread adds to them. */
    private static final class Shapes implements ShapeDictionary {
        private final ConcurrentHashMap<Integer, StoredShape> byId = new ConcurrentHashMap<>();

        @Override
        public void written(StoredShape shape, String use) {
            ShapeDictionary.checkSameShape(byId.putIfAbsent(shape.id(), shape), shape);
        }

        @Override
        public StoredShape find(int id) {
            return byId.get(id);
        }
    }
}
