package io.millrace.rocksdb;

import io.millrace.runtime.state.LogicalSection;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.util.List;
import org.rocksdb.RocksIterator;

/**
 * The section of one key group in a RocksDB backend's checkpoint: the stored rows of every state and
 * timer service in that group, copied as bytes (keys and values are already in the canonical
 * {@link io.millrace.runtime.state.serde.StateSerializer} encoding, so any subtask can load them),
 * with the backend's schema dictionary ({@link SchemaColumn}) in front. Self-describing per state:
 *
 * <pre>
 *   int magic, int keyGroup
 *   schema rows: int n, n bytes of row key, int m, m bytes of row value; then int -1
 *   int states; per state: UTF name, UTF kind, boolean ttl, rows, int -1
 *       row: int n, n bytes of row key after the 2-byte key group, int m, m bytes of row value
 *            (with ttl the value starts with the 8-byte expiry)
 *   int timer services; per service: UTF name, timer rows, int -1
 *       timer row: int n, n bytes [domain][timestamp][key group][key][namespace]
 * </pre>
 */
final class KeyGroupRows {
    /** "MRR2": the format with the schema dictionary. */
    private static final int MAGIC = LogicalSection.ROCKSDB_ROWS_MAGIC;
    private static final int OLD_MAGIC = 0x4D52524B;
    private static final int END = -1;

    private KeyGroupRows() {}

    /** A state as a snapshot sees it: its description and its column. */
    record StatePart(String name, String kind, boolean ttl, BytesColumn column) {}

    /** A timer service as a snapshot sees it: its name and its key-group index column. */
    record TimerPart(String name, BytesColumn byGroup) {}

    /** Receives what {@link #read} finds; called on the restoring (task) thread. */
    interface Target {
        /** One row of the checkpointed schema dictionary; all come before the first state. */
        void schemaRow(byte[] key, byte[] value);

        /** Prepares to receive rows of a state as described in the section. */
        void beginState(String name, String kind, boolean ttl);

        /** One row of the state begun last; {@code key} is the full row key, key group included. */
        void stateRow(byte[] key, byte[] value);

        /** Prepares to receive timers of a service. */
        void beginTimers(String service);

        void timerRow(byte[] row);
    }

    /** Writes the section of {@code keyGroup} from the view. */
    static void write(DataOutputStream out, int keyGroup, StoreView view, BytesColumn schema, List<StatePart> states,
            List<TimerPart> timers) throws IOException {
        byte[] prefix = {(byte) (keyGroup >>> 8), (byte) keyGroup};
        out.writeInt(MAGIC);
        out.writeInt(keyGroup);
        try (RocksIterator it = view.scan(schema)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] key = it.key();
                byte[] value = it.value();
                out.writeInt(key.length);
                out.write(key);
                out.writeInt(value.length);
                out.write(value);
            }
            schema.checkStatus(it);
        }
        out.writeInt(END);
        out.writeInt(states.size());
        for (StatePart s : states) {
            out.writeUTF(s.name());
            out.writeUTF(s.kind());
            out.writeBoolean(s.ttl());
            try (RocksIterator it = view.scan(s.column())) {
                for (it.seek(prefix); it.isValid(); it.next()) {
                    byte[] key = it.key();
                    if (!StateColumn.startsWith(key, prefix)) {
                        break;
                    }
                    byte[] value = it.value();
                    out.writeInt(key.length - 2);
                    out.write(key, 2, key.length - 2);
                    out.writeInt(value.length);
                    out.write(value);
                }
                s.column().checkStatus(it);
            }
            out.writeInt(END);
        }
        out.writeInt(timers.size());
        for (TimerPart t : timers) {
            out.writeUTF(t.name());
            try (RocksIterator it = view.scan(t.byGroup())) {
                for (it.seek(prefix); it.isValid(); it.next()) {
                    byte[] key = it.key();
                    if (!StateColumn.startsWith(key, prefix)) {
                        break;
                    }
                    out.writeInt(key.length - 2);
                    out.write(key, 2, key.length - 2);
                }
                t.byGroup().checkStatus(it);
            }
            out.writeInt(END);
        }
    }

    /**
     * Reads the section of {@code keyGroup}: one of these rows (a checkpoint of this backend) or one in the
     * canonical {@link LogicalSection} format (a savepoint, of either backend, or a heap checkpoint), which
     * {@link LogicalRows} turns into rows. Fails when the stream holds another group's section or none;
     * {@code operator} names the operator in errors, {@code loader} resolves user classes.
     */
    static void read(DataInputStream in, int keyGroup, Target target, ClassLoader loader, String operator) throws IOException {
        int magic = in.readInt();
        if (magic == LogicalSection.MAGIC) {
            LogicalRows.read(in, keyGroup, target, loader, operator);
            return;
        }
        if (magic == OLD_MAGIC) {
            throw new StreamCorruptedException("the RocksDB section of key group " + keyGroup + " was written by an older"
                    + " Millrace whose state format had no schema dictionary; it cannot be restored (start the job without it)");
        }
        if (magic != MAGIC) {
            LogicalSection.checkMagic(magic, keyGroup, operator); // fails saying what was found
        }
        int written = in.readInt();
        if (written != keyGroup) {
            throw new StreamCorruptedException("expected the section of key group " + keyGroup + ", found key group " + written);
        }
        for (int n = in.readInt(); n != END; n = in.readInt()) {
            byte[] key = new byte[n];
            in.readFully(key);
            byte[] value = new byte[in.readInt()];
            in.readFully(value);
            target.schemaRow(key, value);
        }
        int states = in.readInt();
        for (int i = 0; i < states; i++) {
            target.beginState(in.readUTF(), in.readUTF(), in.readBoolean());
            for (int n = in.readInt(); n != END; n = in.readInt()) {
                byte[] key = new byte[n + 2];
                key[0] = (byte) (keyGroup >>> 8);
                key[1] = (byte) keyGroup;
                in.readFully(key, 2, n);
                byte[] value = new byte[in.readInt()];
                in.readFully(value);
                target.stateRow(key, value);
            }
        }
        int services = in.readInt();
        for (int i = 0; i < services; i++) {
            target.beginTimers(in.readUTF());
            for (int n = in.readInt(); n != END; n = in.readInt()) {
                byte[] row = new byte[n];
                in.readFully(row);
                target.timerRow(row);
            }
        }
    }
}
