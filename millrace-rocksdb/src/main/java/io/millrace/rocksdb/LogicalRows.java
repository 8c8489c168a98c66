package io.millrace.rocksdb;

import io.millrace.rocksdb.KeyGroupRows.StatePart;
import io.millrace.rocksdb.KeyGroupRows.TimerPart;
import io.millrace.runtime.state.LogicalSection;
import io.millrace.runtime.state.SortedKeyEncoding;
import io.millrace.runtime.state.serde.ByteReader;
import io.millrace.runtime.state.serde.ByteWriter;
import io.millrace.runtime.state.serde.ShapeDictionary;
import io.millrace.runtime.state.serde.ShapeTable;
import io.millrace.runtime.state.serde.StateSerializer;
import io.millrace.runtime.state.serde.StoredShape;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.rocksdb.RocksIterator;

/**
 * Translates between a RocksDB backend's rows and the canonical {@link LogicalSection} format of savepoints.
 * Keys, map keys, namespaces and values are stored in RocksDB with the same canonical encodings the format
 * uses, so both directions copy their bytes and only regroup them: a map state's rows of one key become one
 * entry, a list row's elements one list, a timer row's key and namespace a timer. Only the elements of list rows
 * written before list appends were merges are decoded and encoded again. What the bytes refer to, the shapes
 * of records and enums, travels in each section's shape table.
 *
 * <p>Writing runs on the snapshot writer thread over a {@link StoreView}, with a {@link Writer} made there (its
 * shape table is not shared); reading runs on the task thread during a restore.
 */
final class LogicalRows {
    private static final byte[] NO_VALUE = new byte[0];

    private LogicalRows() {}

    /** Writes the canonical sections of one snapshot, one key group at a time; one thread. */
    static final class Writer {
        private final StoreView view;
        private final List<StatePart> states;
        private final List<TimerPart> timers;
        private final ShapeTable shapes = new ShapeTable();
        private final StateSerializer keys;
        private final StateSerializer values;
        private final ByteWriter body = new ByteWriter(1 << 16);
        private final ByteWriter entries = new ByteWriter(1 << 16);
        private final ByteWriter group = new ByteWriter(1024);
        private final ByteReader reader = new ByteReader();

        /** Reads the view's whole schema dictionary once: every section carries it. */
        Writer(StoreView view, BytesColumn schema, List<StatePart> states, List<TimerPart> timers, ClassLoader loader,
                String operator) {
            this.view = view;
            this.states = states;
            this.timers = timers;
            try (RocksIterator it = view.scan(schema)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    byte[] key = it.key();
                    if (key.length > 0 && key[0] == SchemaColumn.SHAPE) {
                        shapes.written(StoredShape.decode(it.value()), null);
                    }
                }
                schema.checkStatus(it);
            }
            this.keys = StateSerializer.forKeys(shapes, loader, "the keys of operator '" + operator + "'");
            this.values = StateSerializer.forValues(shapes, null, loader, "the state of operator '" + operator + "'");
        }

        void write(DataOutputStream out, int keyGroup) throws IOException {
            byte[] prefix = {(byte) (keyGroup >>> 8), (byte) keyGroup};
            body.reset();
            body.writeVarInt(states.size());
            for (StatePart s : states) {
                entries.reset();
                int count;
                try (RocksIterator it = view.scan(s.column())) {
                    it.seek(prefix);
                    count = LogicalSection.perKeyMap(s.kind()) ? writeGroupedRows(it, prefix, s) : writeSingleRows(it, prefix, s);
                    s.column().checkStatus(it);
                }
                LogicalSection.writeStateHeader(body, s.name(), s.kind(), s.ttl(), count);
                body.write(entries.buffer(), 0, entries.size());
            }
            body.writeVarInt(timers.size());
            for (TimerPart t : timers) {
                entries.reset();
                int count = 0;
                try (RocksIterator it = view.scan(t.byGroup())) {
                    for (it.seek(prefix); it.isValid() && StateColumn.startsWith(it.key(), prefix); it.next()) {
                        byte[] index = it.key(); // [key group][domain][timestamp][key group][key][namespace]
                        entries.write(index, 13, index.length - 13);
                        LogicalSection.writeTimerTail(entries, bigEndian(index, 3) ^ Long.MIN_VALUE, index[2] == RocksTimerService.EVENT_TIME, count);
                        count++;
                    }
                    t.byGroup().checkStatus(it);
                }
                body.writeString(t.name());
                body.writeVarInt(count);
                body.write(entries.buffer(), 0, entries.size());
            }
            LogicalSection.write(out, keyGroup, shapes, body);
        }

        /** Value, reducing, aggregating and list rows: one entry per row. */
        private int writeSingleRows(RocksIterator it, byte[] prefix, StatePart s) {
            int count = 0;
            boolean list = s.kind().equals(LogicalSection.LIST);
            for (; it.isValid() && StateColumn.startsWith(it.key(), prefix); it.next()) {
                byte[] key = it.key();
                byte[] value = it.value();
                int start = s.ttl() ? 8 : 0;
                entries.write(key, 2, key.length - 2);
                if (list) {
                    writeList(value, start);
                } else {
                    entries.write(value, start, value.length - start);
                }
                if (s.ttl()) {
                    entries.writeLong(bigEndian(value, 0));
                }
                count++;
            }
            return count;
        }

        /** A list row's elements ({@link ListRows}) as one list. */
        private void writeList(byte[] row, int start) {
            group.reset();
            int n = 0;
            ByteReader r = reader.reset(row, start, row.length - start);
            if (StateSerializer.isList(row, start)) {
                // a whole list, as a restore from a savepoint stores it: its elements are copied as they are
                for (int m = values.readListSize(r); m > 0; m--) {
                    int at = r.position();
                    values.skip(r);
                    group.write(row, at, r.position() - at);
                    n++;
                }
            } else if (start < row.length && (row[start] & 0xFF) != ListRows.ELEMENT) {
                for (Object element : (Collection<?>) values.read(r)) { // another collection: decoded and encoded again
                    values.write(element, group);
                    n++;
                }
            }
            while (r.hasRemaining()) {
                r.readUnsignedByte(); // the element marker
                int at = r.position();
                values.skip(r);
                group.write(row, at, r.position() - at);
                n++;
            }
            values.writeListStart(n, entries);
            entries.write(group.buffer(), 0, group.size());
        }

        /** Map and namespaced rows: the consecutive rows of one key become one entry. */
        private int writeGroupedRows(RocksIterator it, byte[] prefix, StatePart s) {
            int count = 0;
            byte[] current = null;
            int currentEnd = 0;
            int subEntries = 0;
            boolean expiries = s.ttl() && LogicalSection.subEntryExpiry(s.kind());
            boolean sorted = s.kind().equals(LogicalSection.SORTED_MAP);
            group.reset();
            for (; it.isValid() && StateColumn.startsWith(it.key(), prefix); it.next()) {
                byte[] key = it.key();
                ByteReader r = reader.reset(key, 2, key.length - 2);
                keys.skip(r);
                int keyEnd = r.position();
                if (current == null || !Arrays.equals(current, 2, currentEnd, key, 2, keyEnd)) {
                    if (current != null) {
                        flushKey(current, currentEnd, subEntries);
                        count++;
                    }
                    current = key;
                    currentEnd = keyEnd;
                    subEntries = 0;
                    group.reset();
                }
                byte[] value = it.value();
                int start = s.ttl() ? 8 : 0;
                if (sorted) {
                    keys.write(SortedKeyEncoding.read(key, keyEnd, key.length - keyEnd), group);
                } else {
                    group.write(key, keyEnd, key.length - keyEnd);
                }
                group.write(value, start, value.length - start);
                if (expiries) {
                    group.writeLong(bigEndian(value, 0));
                }
                subEntries++;
            }
            if (current != null) {
                flushKey(current, currentEnd, subEntries);
                count++;
            }
            return count;
        }

        private void flushKey(byte[] key, int keyEnd, int subEntries) {
            entries.write(key, 2, keyEnd - 2);
            entries.writeVarInt(subEntries);
            entries.write(group.buffer(), 0, group.size());
        }
    }

    /**
     * Reads a canonical section whose magic the caller has read into {@code target}, as rows: the shapes as rows of
     * the schema dictionary first, then each state's entries as its rows, then the timers. A state of the heap
     * backend's own layout (kind {@value LogicalSection#GROUPED}, only in heap checkpoints) cannot become rows:
     * that fails naming the operator and the state.
     */
    static void read(DataInputStream in, int keyGroup, KeyGroupRows.Target target, ClassLoader loader, String operator)
            throws IOException {
        int written = in.readInt();
        if (written != keyGroup) {
            throw new java.io.StreamCorruptedException("operator '" + operator + "': expected the section of key group "
                    + keyGroup + ", found key group " + written);
        }
        ShapeTable shapes = new ShapeTable();
        shapes.readFrom(in);
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        for (StoredShape shape : shapes.shapes()) {
            target.schemaRow(SchemaColumn.shapeRow(shape.id()), shape.encoded());
        }
        UsedShapes keyShapes = new UsedShapes(shapes);
        StateSerializer keys = StateSerializer.forKeys(keyShapes, loader, "the keys of operator '" + operator + "'");
        ByteReader body = new ByteReader(bytes, 0, bytes.length);
        ByteWriter row = new ByteWriter(256);
        ByteWriter sortedKey = new ByteWriter(64);
        int states = body.readVarInt();
        for (int i = 0; i < states; i++) {
            String name = body.readString();
            String kind = body.readString();
            boolean ttl = body.readByte() != 0;
            int entries = body.readVarInt();
            if (kind.equals(LogicalSection.GROUPED)) {
                throw new IllegalStateException("operator '" + operator + "', state '" + name + "': expected keyed state in"
                        + " the canonical format, found the heap backend's own layout of a heap checkpoint (kind grouped),"
                        + " which RocksDB cannot restore; restore it on the heap backend and take a savepoint");
            }
            target.beginState(name, kind, ttl);
            UsedShapes valueShapes = new UsedShapes(shapes);
            StateSerializer values = StateSerializer.forValues(valueShapes, null, loader,
                    "state '" + name + "' of operator '" + operator + "'");
            boolean perKey = LogicalSection.perKeyMap(kind);
            boolean subExpiries = ttl && LogicalSection.subEntryExpiry(kind);
            boolean sorted = kind.equals(LogicalSection.SORTED_MAP);
            for (int e = 0; e < entries; e++) {
                int keyAt = body.position();
                keys.skip(body);
                int keyEnd = body.position();
                if (!perKey) {
                    putRow(target, row, keyGroup, bytes, keyAt, keyEnd, null, -1, -1, body, values, ttl);
                    continue;
                }
                for (int m = body.readVarInt(); m > 0; m--) {
                    int subAt = body.position();
                    if (sorted) {
                        // the canonical map key becomes the order-preserving encoding of sorted map rows
                        sortedKey.reset();
                        SortedKeyEncoding.write(keys.read(body), sortedKey);
                        putRow(target, row, keyGroup, bytes, keyAt, keyEnd, sortedKey.buffer(), 0, sortedKey.size(), body, values,
                                subExpiries);
                        continue;
                    }
                    keys.skip(body);
                    putRow(target, row, keyGroup, bytes, keyAt, keyEnd, bytes, subAt, body.position(), body, values, subExpiries);
                }
            }
            for (int id : valueShapes.used) {
                target.schemaRow(SchemaColumn.useRow(name, id), NO_VALUE);
            }
            for (StoredShape shape : shapes.shapes()) {
                // skipping an enum does not look its shape up: each enum of the section counts as used by each state
                if (entries > 0 && shape.kind() == StoredShape.Kind.ENUM && !valueShapes.used.contains(shape.id())) {
                    target.schemaRow(SchemaColumn.useRow(name, shape.id()), NO_VALUE);
                }
            }
        }
        int services = body.readVarInt();
        for (int i = 0; i < services; i++) {
            target.beginTimers(body.readString());
            for (int t = body.readVarInt(); t > 0; t--) {
                int at = body.position();
                keys.skip(body);
                keys.skip(body);
                int end = body.position();
                long timestamp = body.readLong();
                boolean eventTime = body.readByte() != 0;
                body.readLong(); // the sequence: RocksDB orders timers of equal time by key and namespace
                row.reset();
                row.writeByte(eventTime ? RocksTimerService.EVENT_TIME : RocksTimerService.PROCESSING_TIME);
                row.writeLong(timestamp ^ Long.MIN_VALUE);
                row.writeByte(keyGroup >>> 8);
                row.writeByte(keyGroup);
                row.write(bytes, at, end - at);
                target.timerRow(row.toByteArray());
            }
        }
        for (int id : keyShapes.used) {
            target.schemaRow(SchemaColumn.useRow(null, id), NO_VALUE);
        }
    }

    /**
     * The section's shapes, noting which ones a serializer looks up while it skips over values: the shapes a state's
     * values (or the keys) use, recorded in the schema dictionary so that a state is checked against its classes
     * when it is created, as after a restore of this backend's own rows.
     */
    private static final class UsedShapes implements ShapeDictionary {
        private final ShapeTable shapes;
        final java.util.TreeSet<Integer> used = new java.util.TreeSet<>();

        UsedShapes(ShapeTable shapes) {
            this.shapes = shapes;
        }

        @Override
        public void written(StoredShape shape, String use) {
            shapes.written(shape, use);
        }

        @Override
        public StoredShape find(int id) {
            StoredShape shape = shapes.find(id);
            if (shape != null) {
                used.add(id);
            }
            return shape;
        }
    }

    /**
     * One state row: key {@code [key group][key][sub key]}, value {@code [expiry][value]} (expiry with TTL only); the
     * sub key is {@code sub[subAt, subEnd)}, none when {@code sub} is null.
     */
    private static void putRow(KeyGroupRows.Target target, ByteWriter row, int keyGroup, byte[] bytes, int keyAt, int keyEnd,
            byte[] sub, int subAt, int subEnd, ByteReader body, StateSerializer values, boolean expiry) {
        row.reset();
        row.writeByte(keyGroup >>> 8);
        row.writeByte(keyGroup);
        row.write(bytes, keyAt, keyEnd - keyAt);
        if (sub != null) {
            row.write(sub, subAt, subEnd - subAt);
        }
        byte[] rowKey = row.toByteArray();
        int valueAt = body.position();
        values.skip(body);
        int valueEnd = body.position();
        row.reset();
        if (expiry) {
            row.writeLong(body.readLong());
        }
        row.write(bytes, valueAt, valueEnd - valueAt);
        target.stateRow(rowKey, row.toByteArray());
    }

    /** The 8 big-endian bytes at {@code at} as a long (a timer row's timestamp has its sign bit flipped). */
    private static long bigEndian(byte[] bytes, int at) {
        long v = 0;
        for (int i = at; i < at + 8; i++) {
            v = (v << 8) | (bytes[i] & 0xFF);
        }
        return v;
    }
}
