package io.millrace.runtime.state;

import io.millrace.runtime.state.serde.ByteReader;
import io.millrace.runtime.state.serde.ByteWriter;
import io.millrace.runtime.state.serde.ShapeTable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.StreamCorruptedException;

/**
 * The canonical format of one key group of keyed state: what every savepoint holds, whichever state backend wrote
 * it, and what every backend restores (the heap backend writes it for its checkpoints too). Self-contained, so
 * that a restore at any parallelism reads each key group alone:
 *
 * <pre>
 *   int magic "MRK2", int keyGroup
 *   shape table ({@link ShapeTable#writeTo}): the writer's shape of every record and enum class in the section
 *   int n, n bytes of body:
 *     varint states; per state: string name, string kind, byte ttl, varint entries, per entry by kind:
 *       value, reducing, aggregating: key, value [, long expiry if ttl]
 *       list:                         key, value (a list of the elements) [, long expiry if ttl]
 *       map, sorted_map:              key, varint n, n x (user key, user value [, long expiry if ttl])
 *       namespaced:                   key, varint n, n x (namespace, value)
 *     varint timer services; per service: string name, varint timers, per timer:
 *       key, namespace, long timestamp, byte eventTime, long sequence (order among timers of equal time)
 * </pre>
 *
 * Keys, map keys, namespaces and timers' keys and namespaces are encoded by a
 * {@linkplain io.millrace.runtime.state.serde.StateSerializer#forKeys key serializer}, values by a
 * {@linkplain io.millrace.runtime.state.serde.StateSerializer#forValues value serializer}, over the section's
 * shape table; these encodings do not depend on the backend, so a backend that stores them as bytes copies
 * them. Expiry times are epoch milliseconds of the job's clock, {@code Long.MAX_VALUE} for never. A state's kind
 * is the one its descriptor registers; a restore refuses a state registered under the same name with another
 * kind, naming the operator, the state and both kinds.
 *
 * <p>A checkpoint of the heap backend may also hold the kind {@value #GROUPED} (state kept by an operator in a
 * layout of its own, a length-prefixed payload per key group); savepoints never do.
 */
public final class LogicalSection {
    /** "MRK2": the version with a schema dictionary per section. */
    public static final int MAGIC = 0x4D524B32;
    /** "MRKG": the first version, without a schema dictionary; refused. */
    public static final int FIRST_MAGIC = 0x4D524B47;
    /** "MRR2": a RocksDB backend's own rows (its full checkpoints, and its savepoints before this format). */
    public static final int ROCKSDB_ROWS_MAGIC = 0x4D525232;

    public static final String VALUE = "value";
    public static final String LIST = "list";
    public static final String MAP = "map";
    public static final String REDUCING = "reducing";
    public static final String AGGREGATING = "aggregating";
    public static final String NAMESPACED = "namespaced";
    public static final String GROUPED = "grouped";
    public static final String SORTED_MAP = "sorted_map";

    private LogicalSection() {}

    /** Writes a whole section: its header, {@code shapes}, and the {@code body} built with the helpers below. */
    public static void write(DataOutputStream out, int keyGroup, ShapeTable shapes, ByteWriter body) throws IOException {
        out.writeInt(MAGIC);
        out.writeInt(keyGroup);
        shapes.writeTo(out);
        out.writeInt(body.size());
        out.write(body.buffer(), 0, body.size());
    }

    /** A section as read: its shapes and its body. */
    public record Section(ShapeTable shapes, byte[] body) {
        public ByteReader reader() {
            return new ByteReader(body, 0, body.length);
        }
    }

    /**
     * Reads the section of {@code keyGroup}. Fails with a message that says what the stream holds instead: a
     * RocksDB backend's own rows, a section of the first format, another key group's section, or nothing known.
     * {@code operator} names the operator (its uid) in those messages.
     */
    public static Section read(DataInputStream in, int keyGroup, String operator) throws IOException {
        readHeader(in, keyGroup, operator);
        ShapeTable shapes = new ShapeTable();
        shapes.readFrom(in);
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        return new Section(shapes, body);
    }

    /** Reads and checks the magic and key group of a section; see {@link #read}. */
    public static void readHeader(DataInputStream in, int keyGroup, String operator) throws IOException {
        checkMagic(in.readInt(), keyGroup, operator);
        int written = in.readInt();
        if (written != keyGroup) {
            throw new StreamCorruptedException((operator == null ? "" : "operator '" + operator + "': ") + "expected the section of key group " + keyGroup
                    + ", found key group " + written);
        }
    }

    /** Fails unless {@code magic} starts a section of this format. */
    public static void checkMagic(int magic, int keyGroup, String operator) throws StreamCorruptedException {
        if (magic == MAGIC) {
            return;
        }
        String where = (operator == null ? "the keyed state" : "the keyed state of operator '" + operator + "'") + ", key group " + keyGroup;
        if (magic == ROCKSDB_ROWS_MAGIC) {
            throw new StreamCorruptedException(where + ": expected the canonical savepoint format, found the RocksDB"
                    + " backend's own rows (a RocksDB checkpoint, or a RocksDB savepoint of an older Millrace);"
                    + " restore it with state.backend rocksdb, then take a new savepoint to change backends");
        }
        if (magic == FIRST_MAGIC) {
            throw new StreamCorruptedException(where + ": expected the canonical savepoint format, found the first"
                    + " heap format (no schema dictionary) of an older Millrace, which cannot be restored; start the job without it");
        }
        throw new StreamCorruptedException(where + ": expected a key group section (magic " + Integer.toHexString(MAGIC)
                + "), found " + Integer.toHexString(magic));
    }

    /** A state's header in a body: its name, kind, TTL flag and number of entries. */
    public static void writeStateHeader(ByteWriter out, String name, String kind, boolean ttl, int entries) {
        out.writeString(name);
        out.writeString(kind);
        out.writeByte(ttl ? 1 : 0);
        out.writeVarInt(entries);
    }

    /** A timer's fields after its encoded key and namespace. */
    public static void writeTimerTail(ByteWriter out, long timestamp, boolean eventTime, long sequence) {
        out.writeLong(timestamp);
        out.writeByte(eventTime ? 1 : 0);
        out.writeLong(sequence);
    }

    /** Whether entries of {@code kind} hold a map of sub-entries per key (map, sorted map and namespaced state). */
    public static boolean perKeyMap(String kind) {
        return kind.equals(MAP) || kind.equals(SORTED_MAP) || kind.equals(NAMESPACED);
    }

    /** Whether the sub-entries of {@code kind} carry an expiry each when the state has TTL (map and sorted map state). */
    public static boolean subEntryExpiry(String kind) {
        return kind.equals(MAP) || kind.equals(SORTED_MAP);
    }

    /** A state's kind with its TTL setting, for messages: {@code "map state with TTL"}. */
    public static String describe(String kind, boolean ttl) {
        return kind + (ttl ? " state with TTL" : " state without TTL");
    }
}
