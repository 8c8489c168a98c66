package io.millrace.runtime.state.heap;

import io.millrace.runtime.state.StateSerializer;
import io.millrace.runtime.state.heap.HeapMapState.Stamped;
import io.millrace.runtime.state.heap.KeyTable.Entry;
import io.millrace.runtime.timer.HeapTimerService;
import io.millrace.runtime.timer.Timer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.StreamCorruptedException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One key group of a heap backend in a checkpoint: the unit that a restore, at any parallelism, reads.
 * Self-describing, and self-contained (value classes are numbered per section):
 *
 * <pre>
 *   int magic, int keyGroup
 *   int states; per state: UTF name, UTF kind, boolean ttl, int keys, per key:
 *       value, list, reducing, aggregating: key, value [, long expiry if ttl]
 *       map:                                key, int n, n x (user key, user value [, long expiry if ttl])
 *       namespaced:                         key, int n, n x (namespace, value)
 *       grouped:                            (keys = the byte length of the payload) payload of a {@link GroupedState}
 *   int timer services; per service: UTF name, int timers, per timer:
 *       key, namespace, long timestamp, boolean eventTime, long sequence (registration order)
 * </pre>
 *
 * Keys, namespaces and values go through {@link StateSerializer}; a grouped state's payload is self-contained
 * (it numbers its own classes), so that it can be carried over unread when nobody claims it.
 */
final class KeyGroupSection {
    static final String MAP = "map";
    static final String NAMESPACED = "namespaced";
    static final String GROUPED = "grouped";
    private static final int MAGIC = 0x4D524B47;

    private KeyGroupSection() {}

    /** A registered state as a snapshot sees it. */
    record StateRef(String name, String kind, StateTable table) {}

    /** A timer of a restored section, added when its service is created by name. */
    record RestoredTimer(Object key, int keyGroup, Object namespace, long timestamp, boolean eventTime, long sequence) {}

    /** A registered grouped state as a snapshot sees it. */
    record GroupedRef(String name, GroupedState.Capture capture) {}

    /** What a snapshot writes: the registered states and timer services, and restored ones not claimed yet. */
    record Contents(List<StateRef> states, List<GroupedRef> grouped, List<HeapTimerService<?>> timerServices,
            List<RestoredState> unclaimedStates, Map<String, Map<Integer, List<RestoredTimer>>> unclaimedTimers) {}

    /** Writes the section of {@code keyGroup}. A value that cannot be serialized fails naming its state and class. */
    static void write(DataOutputStream out, int keyGroup, Contents contents) throws IOException {
        StateSerializer values = new StateSerializer();
        out.writeInt(MAGIC);
        out.writeInt(keyGroup);
        out.writeInt(contents.states.size() + contents.grouped.size() + contents.unclaimedStates.size());
        for (StateRef s : contents.states) {
            KeyTable table = s.table.group(keyGroup);
            boolean ttl = s.table.hasTtl();
            writeStateHeader(out, s.name, s.kind, ttl, table.size());
            for (Entry head : table.slots()) {
                for (Entry e = head; e != null; e = e.next) {
                    writeEntry(out, values, s.name, s.kind, ttl, e.key, e.value, e.expiry());
                }
            }
        }
        for (GroupedRef g : contents.grouped) {
            CaptureBuffer payload = new CaptureBuffer();
            try (DataOutputStream payloadOut = new DataOutputStream(payload)) {
                g.capture().write(keyGroup, payloadOut);
            }
            writeGroupedPayload(out, g.name(), payload.copy());
        }
        for (RestoredState s : contents.unclaimedStates) {
            List<RestoredState.Entry> entries = s.entries(keyGroup);
            if (s.kind.equals(GROUPED)) {
                writeGroupedPayload(out, s.name, entries.isEmpty() ? new byte[0] : (byte[]) entries.get(0).value());
                continue;
            }
            writeStateHeader(out, s.name, s.kind, s.ttl, entries.size());
            for (RestoredState.Entry e : entries) {
                writeEntry(out, values, s.name, s.kind, s.ttl, e.key(), e.value(), e.expiry());
            }
        }
        out.writeInt(contents.timerServices.size() + contents.unclaimedTimers.size());
        for (HeapTimerService<?> service : contents.timerServices) {
            List<Timer<?>> event = new ArrayList<>();
            List<Timer<?>> processing = new ArrayList<>();
            service.forEachTimerInGroup(keyGroup, event::add, processing::add);
            out.writeUTF(service.name());
            out.writeInt(event.size() + processing.size());
            for (Timer<?> t : event) {
                writeTimer(out, values, service.name(), t.key(), t.namespace(), t.timestamp(), true, t.sequence());
            }
            for (Timer<?> t : processing) {
                writeTimer(out, values, service.name(), t.key(), t.namespace(), t.timestamp(), false, t.sequence());
            }
        }
        for (Map.Entry<String, Map<Integer, List<RestoredTimer>>> service : contents.unclaimedTimers.entrySet()) {
            List<RestoredTimer> timers = service.getValue().getOrDefault(keyGroup, List.of());
            out.writeUTF(service.getKey());
            out.writeInt(timers.size());
            for (RestoredTimer t : timers) {
                writeTimer(out, values, service.getKey(), t.key(), t.namespace(), t.timestamp(), t.eventTime(), t.sequence());
            }
        }
    }

    private static void writeGroupedPayload(DataOutputStream out, String name, byte[] payload) throws IOException {
        writeStateHeader(out, name, GROUPED, false, payload.length);
        out.write(payload);
    }

    private static void writeStateHeader(DataOutputStream out, String name, String kind, boolean ttl, int keys)
            throws IOException {
        out.writeUTF(name);
        out.writeUTF(kind);
        out.writeBoolean(ttl);
        out.writeInt(keys);
    }

    private static void writeTimer(DataOutputStream out, StateSerializer values, String service, Object key,
            Object namespace, long timestamp, boolean eventTime, long sequence) throws IOException {
        try {
            values.write(out, key);
            values.write(out, namespace);
        } catch (NotSerializableException x) {
            throw new NotSerializableException("timer service '" + service + "' holds a timer of key " + key
                    + " and namespace " + namespace + " that cannot be checkpointed: " + x.getMessage()
                    + " is neither a supported type nor Serializable");
        }
        out.writeLong(timestamp);
        out.writeBoolean(eventTime);
        out.writeLong(sequence);
    }

    private static void writeEntry(DataOutputStream out, StateSerializer values, String name, String kind, boolean ttl,
            Object key, Object value, long expiry) throws IOException {
        try {
            writeEntry(out, values, kind, ttl, key, value, expiry);
        } catch (NotSerializableException x) {
            throw new NotSerializableException("state '" + name + "' holds a value of class " + value.getClass().getName()
                    + " that cannot be checkpointed: " + x.getMessage() + " is neither a supported type nor Serializable");
        }
    }

    private static void writeEntry(DataOutputStream out, StateSerializer values, String kind, boolean ttl,
            Object key, Object value, long expiry) throws IOException {
        values.write(out, key);
        if (kind.equals(MAP) || kind.equals(NAMESPACED)) {
            Map<?, ?> map = (Map<?, ?>) value;
            out.writeInt(map.size());
            for (Map.Entry<?, ?> me : map.entrySet()) {
                values.write(out, me.getKey());
                if (ttl && kind.equals(MAP)) {
                    Stamped s = (Stamped) me.getValue();
                    values.write(out, s.value);
                    out.writeLong(s.expiry);
                } else {
                    values.write(out, me.getValue());
                }
            }
            return;
        }
        values.write(out, value);
        if (ttl) {
            out.writeLong(expiry);
        }
    }

    /**
     * Reads the section of {@code keyGroup} into {@code states} (by name) and {@code timers} (by service
     * name). Fails when the stream holds another group's section or no section at all.
     */
    static void read(DataInputStream in, int keyGroup, Map<String, RestoredState> states,
            Map<String, Map<Integer, List<RestoredTimer>>> timers) throws IOException {
        if (in.readInt() != MAGIC) {
            throw new StreamCorruptedException("no key group section at the offset of key group " + keyGroup);
        }
        int written = in.readInt();
        if (written != keyGroup) {
            throw new StreamCorruptedException("expected the section of key group " + keyGroup + ", found key group " + written);
        }
        StateSerializer values = new StateSerializer();
        int stateCount = in.readInt();
        for (int i = 0; i < stateCount; i++) {
            String name = in.readUTF();
            String kind = in.readUTF();
            boolean ttl = in.readBoolean();
            RestoredState state = states.get(name);
            if (state == null) {
                state = new RestoredState(name, kind, ttl);
                states.put(name, state);
            } else {
                state.checkSame(kind, ttl);
            }
            int keys = in.readInt();
            if (kind.equals(GROUPED)) {
                byte[] payload = new byte[keys];
                in.readFully(payload);
                if (keys > 0) {
                    state.add(keyGroup, null, payload, Long.MAX_VALUE);
                }
                continue;
            }
            for (int k = 0; k < keys; k++) {
                readEntry(in, values, keyGroup, state);
            }
        }
        int serviceCount = in.readInt();
        for (int i = 0; i < serviceCount; i++) {
            String service = in.readUTF();
            int n = in.readInt();
            if (n == 0) {
                timers.computeIfAbsent(service, s -> new HashMap<>());
                continue;
            }
            List<RestoredTimer> list = timers.computeIfAbsent(service, s -> new HashMap<>())
                    .computeIfAbsent(keyGroup, g -> new ArrayList<>());
            for (int t = 0; t < n; t++) {
                Object key = values.read(in);
                Object namespace = values.read(in);
                long timestamp = in.readLong();
                boolean eventTime = in.readBoolean();
                list.add(new RestoredTimer(key, keyGroup, namespace, timestamp, eventTime, in.readLong()));
            }
        }
    }

    private static void readEntry(DataInputStream in, StateSerializer values, int keyGroup, RestoredState state)
            throws IOException {
        Object key = values.read(in);
        if (state.kind.equals(MAP) || state.kind.equals(NAMESPACED)) {
            int n = in.readInt();
            HashMap<Object, Object> map = new HashMap<>(n * 4 / 3 + 1);
            for (int i = 0; i < n; i++) {
                Object inner = values.read(in);
                Object value = values.read(in);
                map.put(inner, state.ttl && state.kind.equals(MAP) ? new Stamped(value, in.readLong()) : value);
            }
            state.add(keyGroup, key, map, Long.MAX_VALUE);
            return;
        }
        Object value = values.read(in);
        state.add(keyGroup, key, value, state.ttl ? in.readLong() : Long.MAX_VALUE);
    }
}
