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
 * groups. The bytes live only as long as the job: a snapshot decodes them and writes them again in its own
 * format, so shapes here never outlive the classes that wrote them.
 *
 * <p>The thread that writes (the task thread) uses serializers of its own without locking; a checkpoint writer
 * reading a group it captures itself uses a second reader under a lock. Both read shapes from one dictionary that
 * is safe to read while the task thread adds to it.
 */
final class ArenaCodec {
    private final String state;
    private final Shapes shapes = new Shapes();
    private final StateSerializer writer;
    private final StateSerializer reader;
    private final ByteReader input = new ByteReader();
    private final ByteWriter scratch = new ByteWriter(256);
    private final StateSerializer otherReader;
    private final ByteReader otherInput = new ByteReader();
    /** The thread that wrote last: it reads with {@link #reader}, unlocked. */
    private volatile Thread owner;

    ArenaCodec(String state) {
        this.state = state;
        ClassLoader loader = StateSerializer.userClassLoader();
        String context = "state '" + state + "'";
        this.writer = StateSerializer.forValues(shapes, state, loader, context);
        this.reader = StateSerializer.forValues(shapes, state, loader, context);
        this.otherReader = StateSerializer.forValues(shapes, state, loader, context);
    }

    /**
     * Encodes {@code value} into a buffer reused by the next call; {@link #scratchSize} bytes of the returned
     * array are the encoding. Fails naming the state and the class when the value cannot be encoded.
     */
    byte[] scratch(Object value) {
        claim();
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

    /** Decodes {@code length} bytes of {@code bytes} from {@code offset}; any thread. */
    Object read(byte[] bytes, int offset, int length) {
        if (Thread.currentThread() == owner) {
            return reader.read(input.reset(bytes, offset, length));
        }
        synchronized (otherReader) {
            return otherReader.read(otherInput.reset(bytes, offset, length));
        }
    }

    /** Adds every shape this codec has written to {@code table}, which goes with bytes copied from the arena. */
    void copyShapesInto(ShapeTable table) {
        for (StoredShape s : shapes.byId.values()) {
            table.written(s, state);
        }
    }

    /**
     * The writing thread becomes the owner. The backend is used by one thread at a time (a restore may run on
     * another thread than the task's, before it), so a change of owner is a hand-over, never a race.
     */
    private void claim() {
        Thread t = Thread.currentThread();
        if (owner != t) {
            owner = t;
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
