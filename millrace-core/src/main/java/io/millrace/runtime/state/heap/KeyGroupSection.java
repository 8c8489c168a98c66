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
 *   int timer services; per service: UTF name, int timers, per timer:
 *       key, namespace, long timestamp, boolean eventTime, long sequence (registration order)
 * </pre>
 *
 * Keys, namespaces and values go through {@link StateSerializer}.
 */
final class KeyGroupSection {
    static final String MAP = "map";
    static final String NAMESPACED = "namespaced";
    private static final int MAGIC = 0x4D524B47;

    private KeyGroupSection() {}

    /** A registered state as a snapshot sees it. */
    record StateRef(String name, String kind, StateTable table) {}

    /** A timer of a restored section, added when its service is created by name. */
    record RestoredTimer(Object key, int keyGroup, Object namespace, long timestamp, boolean eventTime, long sequence) {}

    /** Writes the section of {@code keyGroup}. A value that cannot be serialized fails naming its state and class. */
    static void write(DataOutputStream out, int keyGroup, List<StateRef> states, List<HeapTimerService<?>> timerServices)
            throws IOException {
        StateSerializer values = new StateSerializer();
        out.writeInt(MAGIC);
        out.writeInt(keyGroup);
        out.writeInt(states.size());
        for (StateRef s : states) {
            KeyTable table = s.table.group(keyGroup);
            boolean ttl = s.table.hasTtl();
            out.writeUTF(s.name);
            out.writeUTF(s.kind);
            out.writeBoolean(ttl);
            out.writeInt(table.size());
            for (Entry head : table.slots()) {
                for (Entry e = head; e != null; e = e.next) {
                    try {
                        writeEntry(out, values, s.kind, ttl, e);
                    } catch (NotSerializableException x) {
                        throw new NotSerializableException("state '" + s.name + "' holds a value of class "
                                + e.value.getClass().getName() + " that cannot be checkpointed: " + x.getMessage()
                                + " is neither a supported type nor Serializable");
                    }
                }
            }
        }
        out.writeInt(timerServices.size());
        List<Timer<?>> timers = new ArrayList<>();
        for (HeapTimerService<?> service : timerServices) {
            timers.clear();
            List<Timer<?>> processing = new ArrayList<>();
            service.forEachTimerInGroup(keyGroup, timers::add, processing::add);
            int eventCount = timers.size();
            timers.addAll(processing);
            out.writeUTF(service.name());
            out.writeInt(timers.size());
            for (int i = 0; i < timers.size(); i++) {
                Timer<?> t = timers.get(i);
                try {
                    values.write(out, t.key());
                    values.write(out, t.namespace());
                } catch (NotSerializableException x) {
                    throw new NotSerializableException("timer service '" + service.name() + "' holds a timer " + t
                            + " that cannot be checkpointed: " + x.getMessage() + " is neither a supported type nor Serializable");
                }
                out.writeLong(t.timestamp());
                out.writeBoolean(i < eventCount);
                out.writeLong(t.sequence());
            }
        }
    }

    private static void writeEntry(DataOutputStream out, StateSerializer values, String kind, boolean ttl, Entry e)
            throws IOException {
        values.write(out, e.key);
        if (kind.equals(MAP) || kind.equals(NAMESPACED)) {
            Map<?, ?> map = (Map<?, ?>) e.value;
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
        values.write(out, e.value);
        if (ttl) {
            out.writeLong(e.expiry());
        }
    }

    /**
     * Reads the section of {@code keyGroup} into {@code states} (by name) and {@code timers} (by service
     * name). Fails when the stream holds another group's section or no section at all.
     */
    static void read(DataInputStream in, int keyGroup, Map<String, RestoredState> states,
            Map<String, List<RestoredTimer>> timers) throws IOException {
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
            for (int k = 0; k < keys; k++) {
                readEntry(in, values, keyGroup, state);
            }
        }
        int serviceCount = in.readInt();
        for (int i = 0; i < serviceCount; i++) {
            List<RestoredTimer> list = timers.computeIfAbsent(in.readUTF(), n -> new ArrayList<>());
            int n = in.readInt();
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
