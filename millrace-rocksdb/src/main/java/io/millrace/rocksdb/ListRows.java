package io.millrace.rocksdb;

import io.millrace.runtime.state.serde.ByteReader;
import io.millrace.runtime.state.serde.ByteWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The row format of list state: {@code [expiry: 8 bytes, TTL only]}, then, in rows written before list
 * appends were merges and in rows restored from a savepoint ({@link LogicalRows}), one serialized list, then {@code [ELEMENT][element]} per element. Appending is
 * therefore a RocksDB merge that concatenates the new elements' encodings, with no read. No value encoding
 * starts with {@link #ELEMENT}, which tells the two parts apart.
 */
final class ListRows {
    /** Marks each element. */
    static final int ELEMENT = 0xFF;

    private ListRows() {}

    /**
     * The cached value of a list row appended to without being read: the elements appended since it was
     * last written back (as a merge). Reading the list reads the row and adds them.
     */
    static final class Appends {
        final ArrayList<Object> elements = new ArrayList<>();
    }

    /** Writes {@code [ELEMENT][element]} for each element, with the state's serializer. */
    static void write(List<?> elements, ByteWriter out, StateColumn state) {
        for (int i = 0; i < elements.size(); i++) {
            out.writeByte(ELEMENT);
            state.serialize(elements.get(i), out);
        }
    }

    /** Reads a row's elements from {@code start} (after the expiry): the old-format list first, if any. */
    static ArrayList<Object> read(byte[] row, int start, ByteReader reader, StateColumn state) {
        ArrayList<Object> out = new ArrayList<>();
        ByteReader r = reader.reset(row, start, row.length - start);
        if (start < row.length && (row[start] & 0xFF) != ELEMENT) {
            out.addAll((Collection<?>) state.readValue(r));
        }
        while (r.hasRemaining()) {
            int marker = r.readUnsignedByte();
            if (marker != ELEMENT) {
                throw new IllegalStateException("list state '" + state.name + "': corrupt row, element marker " + marker);
            }
            out.add(state.readValue(r));
        }
        return out;
    }
}
