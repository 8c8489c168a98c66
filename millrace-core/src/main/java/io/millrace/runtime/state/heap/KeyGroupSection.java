package io.millrace.runtime.state.heap;

import io.millrace.runtime.state.LogicalSection;
import io.millrace.runtime.state.heap.HeapMapState.Stamped;
import io.millrace.runtime.state.serde.ByteReader;
import io.millrace.runtime.state.serde.ByteWriter;
import io.millrace.runtime.state.serde.ShapeTable;
import io.millrace.runtime.state.serde.StateSerializer;
import io.millrace.runtime.timer.HeapTimerService;
import io.millrace.runtime.timer.Timer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One key group of a heap backend in a checkpoint or savepoint, in the canonical {@link LogicalSection} format:
 * the unit that a restore, at any parallelism and on any backend, reads. Captures the heap's tables for a
 * snapshot (copy-on-write, see {@link HeapSnapshot}); {@link SectionReader} reads sections back, keeping each state's entries
 * encoded until the state is registered. Values of an evolved record or enum class are read into the class as
 * it is now, and an incompatible change fails the restore naming the state. In a checkpoint a grouped state's
 * payload is length-prefixed, so that a restore can carry it unread (like any unclaimed state, together with
 * the section's shapes) when nobody registers it; its values use the section's shape table like every other
 * state's.
 */
final class KeyGroupSection {
    static final String MAP = LogicalSection.MAP;
    static final String NAMESPACED = LogicalSection.NAMESPACED;
    static final String GROUPED = LogicalSection.GROUPED;
    static final String LIST = LogicalSection.LIST;

    private KeyGroupSection() {}

    /** A registered state as a snapshot sees it. */
    record StateRef(String name, String kind, StateTable table) {}

    /** A timer of a restored section, added when its service is created by name. */
    record RestoredTimer(Object key, int keyGroup, Object namespace, long timestamp, boolean eventTime, long sequence) {}

    /**
     * A registered grouped state as a snapshot sees it: the capture taken when the snapshot was, and its canonical
     * form (null when it has none; a savepoint then fails).
     */
    record GroupedRef(String name, GroupedState.Capture capture, GroupedState.LogicalForm form) {}

    /**
     * What a snapshot writes: the registered states and timer services, and restored ones not claimed yet. For a
     * {@code savepoint}, grouped states are written in their canonical form ({@link LogicalGroupedState}).
     */
    record Contents(List<StateRef> states, List<GroupedRef> grouped, List<HeapTimerService<?>> timerServices,
            List<RestoredState> unclaimedStates, Map<String, Map<Integer, List<RestoredTimer>>> unclaimedTimers,
            boolean savepoint) {
        /** Keyed states in a section: a grouped state's canonical form may have several. */
        int sectionStates() {
            int n = states.size() + unclaimedStates.size();
            for (GroupedRef g : grouped) {
                n += savepoint ? g.form().states().size() : 1;
            }
            return n;
        }

        /** Timer services in a section. */
        int sectionTimerServices() {
            int n = timerServices.size() + unclaimedTimers.size();
            for (GroupedRef g : grouped) {
                n += savepoint ? g.form().timerServices().size() : 0;
            }
            return n;
        }
    }

    /**
     * What a snapshot writes of {@code keyGroup}, taken so that the caller (the task thread) may change the
     * group as soon as this returns. With {@code copyImmutable}, a value, list, reducing or aggregating state whose
     * stored values (list elements) are all {@linkplain ImmutableClasses immutable} is copied as references (keys,
     * values, expiry times) and the timers as the timer objects (which never change once registered); {@link Captured#writeTo}
     * serializes them later, on any thread. Everything else is serialized here. A value that cannot be
     * serialized fails naming its state and class, here or in {@code writeTo}.
     */
    static Captured capture(int keyGroup, Contents contents, boolean copyImmutable) throws IOException {
        return capture(keyGroup, contents, copyImmutable, new ByteWriter(4096));
    }

    /**
     * {@link #capture(int, Contents, boolean)} serializing into {@code buffer} (reset first), which the caller
     * reuses only once the capture has been written: the checkpoint writer, which serializes a group and writes it
     * before the next, keeps one buffer at the size of its largest group instead of growing one per group.
     */
    static Captured capture(int keyGroup, Contents contents, boolean copyImmutable, ByteWriter buffer) throws IOException {
        buffer.reset();
        Captured c = new Captured(keyGroup, buffer);
        ByteWriter body = c.body;
        body.writeVarInt(contents.sectionStates());
        for (StateRef s : contents.states) {
            KeyTable table = s.table.group(keyGroup);
            boolean ttl = s.table.hasTtl();
            if (table.serialized()) {
                c.defer(EncodedState.of(s, table, ttl)); // always by handle: the bytes never change
                continue;
            }
            FrozenState frozen = copyImmutable ? FrozenState.of(s, table, ttl) : null;
            if (frozen != null) {
                c.defer(frozen);
                continue;
            }
            SectionCodec codec = SectionCodec.forWriting(c.shapes, s.name);
            writeStateHeader(body, s.name, s.kind, ttl, table.size());
            for (int p = 0; p < table.size(); p++) {
                writeEntry(body, codec, s.name, s.kind, ttl, table.key(p), table.value(p), table.expiry(p));
            }
        }
        ByteWriter logicalTimers = contents.savepoint && !contents.grouped.isEmpty() ? new ByteWriter(256) : null;
        for (GroupedRef g : contents.grouped) {
            if (contents.savepoint) {
                LogicalGroupedState.write(keyGroup, g.name(), g.form(), g.capture(), c.shapes, body, logicalTimers);
                continue;
            }
            GroupedState.Capture copy = copyImmutable ? g.capture().copyGroup(keyGroup) : null;
            if (copy != null) {
                c.defer((out, shapes) -> writeGrouped(out, shapes, keyGroup, new GroupedRef(g.name(), copy, g.form())));
            } else {
                writeGrouped(body, c.shapes, keyGroup, g);
            }
        }
        for (RestoredState s : contents.unclaimedStates) {
            List<RestoredState.Chunk> chunks = s.chunks(keyGroup);
            writeStateHeader(body, s.name, s.kind, s.ttl, chunks.stream().mapToInt(RestoredState.Chunk::count).sum());
            for (RestoredState.Chunk chunk : chunks) {
                c.shapes.addAll(chunk.shapes());
                body.write(chunk.bytes(), chunk.from(), chunk.to() - chunk.from());
            }
        }
        body.writeVarInt(contents.sectionTimerServices());
        if (logicalTimers != null) {
            body.write(logicalTimers.buffer(), 0, logicalTimers.size());
        }
        for (HeapTimerService<?> service : contents.timerServices) {
            FrozenTimers timers = new FrozenTimers(service.name());
            service.forEachTimerInGroup(keyGroup, timers.eventTime::add, timers.processingTime::add);
            if (copyImmutable) {
                c.defer(timers);
            } else {
                timers.write(body, c.shapes);
            }
        }
        for (Map.Entry<String, Map<Integer, List<RestoredTimer>>> service : contents.unclaimedTimers.entrySet()) {
            List<RestoredTimer> timers = service.getValue().getOrDefault(keyGroup, List.of());
            SectionCodec codec = SectionCodec.forWriting(c.shapes, null);
            body.writeString(service.getKey());
            body.writeVarInt(timers.size());
            for (RestoredTimer t : timers) {
                writeTimer(body, codec, service.getKey(), t.key(), t.namespace(), t.timestamp(), t.eventTime(), t.sequence());
            }
        }
        return c;
    }

    /** A grouped state's part of a section: its header and its payload, length-prefixed. */
    private static void writeGrouped(ByteWriter out, ShapeTable shapes, int keyGroup, GroupedRef g) throws IOException {
        ByteWriter payload = new ByteWriter(1024);
        try {
            g.capture().write(keyGroup, shapes, payload);
        } catch (IllegalArgumentException x) {
            throw new NotSerializableException("state '" + g.name() + "' holds a value that cannot be checkpointed: " + x.getMessage());
        }
        boolean empty = payload.size() == 0;
        writeStateHeader(out, g.name(), GROUPED, false, empty ? 0 : 1);
        if (!empty) {
            out.writeVarInt(payload.size());
            out.write(payload.buffer(), 0, payload.size());
        }
    }

    /**
     * One key group captured for a snapshot: the section's body so far as serialized pieces, with the parts
     * copied as references in between, and the shape table they share. Built on the task thread (or, for a group
     * the writer reaches first, on the writer thread); {@link #writeTo} runs once, on any one thread, after the
     * builder handed it over.
     */
    static final class Captured {
        private final int keyGroup;
        private final ShapeTable shapes = new ShapeTable();
        private final ByteWriter body;
        /** Serialized pieces (byte[]) and deferred parts ({@link Deferred}) before what {@link #body} holds, in order. */
        private final List<Object> pieces = new ArrayList<>(2);

        private Captured(int keyGroup, ByteWriter body) {
            this.keyGroup = keyGroup;
            this.body = body;
        }

        private void defer(Deferred part) {
            if (body.size() > 0) {
                pieces.add(Arrays.copyOf(body.buffer(), body.size()));
                body.reset();
            }
            pieces.add(part);
        }

        /**
         * Writes the section's bytes to {@code out} without making them an array of their own: what was copied as
         * references is serialized into {@code scratch} (reset first), which the caller passes again for the next
         * section, so a snapshot's buffer grows to its largest section once rather than every section's buffers
         * growing from small, and the section is not copied again on its way out.
         */
        void writeTo(DataOutputStream out, ByteWriter scratch) throws IOException {
            ByteWriter all = body;
            if (!pieces.isEmpty()) {
                all = scratch;
                all.reset();
                for (Object piece : pieces) {
                    if (piece instanceof byte[] bytes) {
                        all.write(bytes, 0, bytes.length);
                    } else {
                        ((Deferred) piece).write(all, shapes);
                    }
                }
                all.write(body.buffer(), 0, body.size());
            }
            LogicalSection.write(out, keyGroup, shapes, all);
        }
    }

    /** A part of a section copied as references, serialized when the section is written. */
    private interface Deferred {
        void write(ByteWriter out, ShapeTable shapes) throws IOException;
    }

    /**
     * A state's entries as references: its values are immutable, so they read the same later. Keys are copied as
     * numbers while every key is a {@code Long} and boxed when written, on the writer thread, not during the
     * capture on the task thread.
     */
    private record FrozenState(StateRef state, boolean ttl, long[] longKeys, Object[] keys, Object[] values, long[] expiries)
            implements Deferred {
        /**
         * The state's entries in {@code table}, or null when it is not a kind whose values may be immutable or one of
         * them is not. A list state's element holders are copied (their elements are immutable, the holders grow).
         */
        static FrozenState of(StateRef state, KeyTable table, boolean ttl) {
            if (LogicalSection.perKeyMap(state.kind)) {
                return null;
            }
            boolean list = state.kind.equals(LIST);
            int n = table.size();
            Object[] values = new Object[n];
            long[] expiries = ttl ? new long[n] : null;
            for (int p = 0; p < n; p++) {
                Object v = table.value(p);
                if (list && v instanceof HeapListState.Elements e) {
                    v = e.immutableCopy();
                    if (v == null) {
                        return null;
                    }
                } else if (!ImmutableClasses.isImmutable(v)) {
                    return null;
                }
                values[p] = v;
                if (ttl) {
                    expiries[p] = table.expiry(p);
                }
            }
            long[] longKeys = table.copyLongKeys(n);
            return new FrozenState(state, ttl, longKeys, longKeys == null ? table.copyKeys(n) : null, values, expiries);
        }

        @Override
        public void write(ByteWriter out, ShapeTable shapes) throws IOException {
            SectionCodec codec = SectionCodec.forWriting(shapes, state.name);
            writeStateHeader(out, state.name, state.kind, ttl, values.length);
            for (int i = 0; i < values.length; i++) {
                Object key = longKeys != null ? Long.valueOf(longKeys[i]) : keys[i];
                writeEntry(out, codec, state.name, state.kind, ttl, key, values[i], ttl ? expiries[i] : Long.MAX_VALUE);
            }
        }
    }

    /**
     * A state kept serialized ({@link ValueArena}): its handles and the arrays they point into, whose written bytes
     * never change, and its keys (as numbers while every key is a {@code Long}) and expiry times. Written by copying
     * each value's bytes, with the shapes they use, not by decoding and encoding it again.
     */
    private record EncodedState(StateRef state, boolean ttl, long[] longKeys, Object[] keys, ValueArena.Frozen values,
            long[] expiries) implements Deferred {
        static EncodedState of(StateRef state, KeyTable table, boolean ttl) {
            int n = table.size();
            long[] expiries = ttl ? new long[n] : null;
            for (int p = 0; ttl && p < n; p++) {
                expiries[p] = table.expiry(p);
            }
            long[] longKeys = table.copyLongKeys(n);
            return new EncodedState(state, ttl, longKeys, longKeys == null ? table.copyKeys(n) : null, table.freezeValues(n), expiries);
        }

        @Override
        public void write(ByteWriter out, ShapeTable shapes) throws IOException {
            SectionCodec codec = SectionCodec.forWriting(shapes, state.name);
            values.codec().copyShapesInto(shapes);
            writeStateHeader(out, state.name, state.kind, ttl, values.size());
            for (int i = 0; i < values.size(); i++) {
                Object key = longKeys != null ? Long.valueOf(longKeys[i]) : keys[i];
                try {
                    codec.keys().write(key, out);
                } catch (IllegalArgumentException x) {
                    throw new NotSerializableException("state '" + state.name + "' has a key of class "
                            + key.getClass().getName() + " that cannot be checkpointed: " + x.getMessage());
                }
                values.writeValue(i, codec.values(), out);
                if (ttl) {
                    out.writeLong(expiries[i]);
                }
            }
        }
    }

    /** A timer service's timers of one group, as the timer objects (whose key, namespace and time never change). */
    private record FrozenTimers(String name, List<Timer<?>> eventTime, List<Timer<?>> processingTime) implements Deferred {
        FrozenTimers(String name) {
            this(name, new ArrayList<>(), new ArrayList<>());
        }

        @Override
        public void write(ByteWriter out, ShapeTable shapes) throws IOException {
            SectionCodec codec = SectionCodec.forWriting(shapes, null);
            out.writeString(name);
            out.writeVarInt(eventTime.size() + processingTime.size());
            for (Timer<?> t : eventTime) {
                writeTimer(out, codec, name, t.key(), t.namespace(), t.timestamp(), true, t.sequence());
            }
            for (Timer<?> t : processingTime) {
                writeTimer(out, codec, name, t.key(), t.namespace(), t.timestamp(), false, t.sequence());
            }
        }
    }

    private static void writeStateHeader(ByteWriter out, String name, String kind, boolean ttl, int keys) {
        LogicalSection.writeStateHeader(out, name, kind, ttl, keys);
    }

    private static void writeTimer(ByteWriter out, SectionCodec codec, String service, Object key,
            Object namespace, long timestamp, boolean eventTime, long sequence) throws IOException {
        try {
            codec.keys().write(key, out);
            codec.keys().write(namespace, out);
        } catch (IllegalArgumentException x) {
            throw new NotSerializableException("timer service '" + service + "' holds a timer of key " + key
                    + " and namespace " + namespace + " that cannot be checkpointed: " + x.getMessage());
        }
        LogicalSection.writeTimerTail(out, timestamp, eventTime, sequence);
    }

    private static void writeEntry(ByteWriter out, SectionCodec codec, String name, String kind, boolean ttl,
            Object key, Object value, long expiry) throws IOException {
        try {
            writeEntry(out, codec, kind, ttl, key, value, expiry);
        } catch (IllegalArgumentException x) {
            throw new NotSerializableException("state '" + name + "' holds a value of class " + value.getClass().getName()
                    + " that cannot be checkpointed: " + x.getMessage());
        }
    }

    private static void writeEntry(ByteWriter out, SectionCodec codec, String kind, boolean ttl,
            Object key, Object value, long expiry) {
        codec.keys().write(key, out);
        if (LogicalSection.perKeyMap(kind)) {
            Map<?, ?> map = (Map<?, ?>) value;
            out.writeVarInt(map.size());
            for (Map.Entry<?, ?> me : map.entrySet()) {
                codec.keys().write(me.getKey(), out);
                if (ttl && LogicalSection.subEntryExpiry(kind)) {
                    Stamped s = (Stamped) me.getValue();
                    codec.values().write(s.value, out);
                    out.writeLong(s.expiry);
                } else {
                    codec.values().write(me.getValue(), out);
                }
            }
            return;
        }
        if (kind.equals(LIST)) {
            HeapListState.write(value, codec.values(), out);
        } else {
            codec.values().write(value, out);
        }
        if (ttl) {
            out.writeLong(expiry);
        }
    }
}
