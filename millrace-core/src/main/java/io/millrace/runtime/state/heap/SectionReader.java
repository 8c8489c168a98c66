package io.millrace.runtime.state.heap;

import io.millrace.runtime.state.LogicalSection;
import io.millrace.runtime.state.heap.HeapMapState.Stamped;
import io.millrace.runtime.state.serde.ByteReader;
import io.millrace.runtime.state.serde.ShapeTable;
import io.millrace.runtime.state.serde.StateSerializer;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The read side of {@link KeyGroupSection}: reads a key group's section into restored states whose entries
 * stay encoded (with the section's shape table) until the state is registered, and decodes them then with
 * the classes as they are now. Task thread only (or the restoring thread before the operator opens).
 */
final class SectionReader {
    private SectionReader() {}

    /**
     * Reads the section of {@code keyGroup} into {@code states} (by name; entries stay encoded until
     * {@link #decode}) and {@code timers} (by service name). Fails when the stream holds another group's
     * section or no section at all, and with {@link io.millrace.runtime.state.serde.StateSchemaException}
     * naming the service and {@code operator} (null when unknown) when a timer's key cannot be read.
     */
    static void read(DataInputStream in, int keyGroup, String operator, Map<String, RestoredState> states,
            Map<String, Map<Integer, List<KeyGroupSection.RestoredTimer>>> timers) throws IOException {
        LogicalSection.readHeader(in, keyGroup, operator);
        ShapeTable shapes = new ShapeTable();
        shapes.readFrom(in);
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        ByteReader body = new ByteReader(bytes, 0, bytes.length);
        ClassLoader loader = StateSerializer.userClassLoader();
        int stateCount = body.readVarInt();
        for (int i = 0; i < stateCount; i++) {
            String name = body.readString();
            String kind = body.readString();
            boolean ttl = body.readByte() != 0;
            RestoredState state = states.get(name);
            if (state == null) {
                state = new RestoredState(name, kind, ttl);
                states.put(name, state);
            } else {
                state.checkSame(kind, ttl);
            }
            SectionCodec codec = SectionCodec.forReading(shapes, "state '" + name + "'", operator, loader);
            int keys = body.readVarInt();
            int from = body.position();
            for (int k = 0; k < keys; k++) {
                if (kind.equals(LogicalSection.GROUPED)) {
                    body.skip(body.readVarInt());
                } else {
                    skipEntry(body, codec, state);
                }
            }
            state.add(keyGroup, new RestoredState.Chunk(shapes, bytes, from, body.position(), keys));
        }
        int serviceCount = body.readVarInt();
        for (int i = 0; i < serviceCount; i++) {
            String service = body.readString();
            int n = body.readVarInt();
            if (n == 0) {
                timers.computeIfAbsent(service, s -> new HashMap<>());
                continue;
            }
            SectionCodec codec = SectionCodec.forReading(shapes, "timer service '" + service + "'", operator, loader);
            List<KeyGroupSection.RestoredTimer> list = timers.computeIfAbsent(service, s -> new HashMap<>())
                    .computeIfAbsent(keyGroup, g -> new ArrayList<>());
            for (int t = 0; t < n; t++) {
                Object key = codec.keys().read(body);
                Object namespace = codec.keys().read(body);
                long timestamp = body.readLong();
                boolean eventTime = body.readByte() != 0;
                list.add(new KeyGroupSection.RestoredTimer(key, keyGroup, namespace, timestamp, eventTime, body.readLong()));
            }
        }
    }

    private static void skipEntry(ByteReader in, SectionCodec codec, RestoredState state) {
        codec.keys().skip(in);
        if (LogicalSection.perKeyMap(state.kind)) {
            for (int i = in.readVarInt(); i > 0; i--) {
                codec.keys().skip(in);
                codec.values().skip(in);
                if (state.ttl && LogicalSection.subEntryExpiry(state.kind)) {
                    in.skip(8);
                }
            }
            return;
        }
        codec.values().skip(in);
        if (state.ttl) {
            in.skip(8);
        }
    }

    /**
     * Hands the payloads of a restored grouped chunk to {@code into} for {@code keyGroup}, each through a
     * reader limited to it, with the chunk's shape table; {@code context} names the state and operator.
     */
    static void decodeGrouped(RestoredState.Chunk chunk, int keyGroup, String context, GroupedState into) {
        ByteReader in = new ByteReader(chunk.bytes(), chunk.from(), chunk.to() - chunk.from());
        for (int k = 0; k < chunk.count(); k++) {
            int length = in.readVarInt();
            int at = in.position();
            into.restore(keyGroup, chunk.shapes(), new ByteReader(chunk.bytes(), at, length), context);
            in.skip(length);
        }
    }

    /** Receives one decoded entry; {@code expiry} only with TTL on a non-map state. */
    interface EntryConsumer {
        void accept(Object key, Object value, long expiry);
    }

    /**
     * Decodes the entries of a restored chunk with the classes as they are now; map and namespaced
     * states give a HashMap per key ({@link Stamped} values for a map state with TTL).
     */
    static void decode(RestoredState state, RestoredState.Chunk chunk, String operator, EntryConsumer action) {
        SectionCodec codec = SectionCodec.forReading(chunk.shapes(), "state '" + state.name + "'", operator, StateSerializer.userClassLoader());
        ByteReader in = new ByteReader(chunk.bytes(), chunk.from(), chunk.to() - chunk.from());
        for (int k = 0; k < chunk.count(); k++) {
            Object key = codec.keys().read(in);
            if (LogicalSection.perKeyMap(state.kind)) {
                int n = in.readVarInt();
                HashMap<Object, Object> map = new HashMap<>(n * 4 / 3 + 1);
                for (int i = 0; i < n; i++) {
                    Object inner = codec.keys().read(in);
                    Object value = codec.values().read(in);
                    map.put(inner, state.ttl && LogicalSection.subEntryExpiry(state.kind) ? new Stamped(value, in.readLong()) : value);
                }
                action.accept(key, map, Long.MAX_VALUE);
            } else {
                Object value = codec.values().read(in);
                action.accept(key, value, state.ttl ? in.readLong() : Long.MAX_VALUE);
            }
        }
    }
}
