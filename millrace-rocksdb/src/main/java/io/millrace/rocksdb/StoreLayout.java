package io.millrace.rocksdb;

import io.millrace.rocksdb.KeyGroupRows.StatePart;
import io.millrace.rocksdb.KeyGroupRows.TimerPart;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Which states (name, kind, TTL or not) and timer services a RocksDB database holds, stored in its metadata
 * column when an incremental snapshot is taken, so that the database files alone can be restored: the
 * states' rows are in {@code state:<name>}, the timers in {@code timers:<service>} and
 * {@code timer-groups:<service>}, the schema dictionary in {@value SchemaColumn#COLUMN}. Row format:
 *
 * <pre>
 *   int version (2), int states; per state: UTF name, UTF kind, boolean ttl; int services; per service: UTF name
 * </pre>
 */
record StoreLayout(List<State> states, List<String> timerServices) {
    private static final byte[] KEY = "checkpoint-layout".getBytes(StandardCharsets.UTF_8);
    /** 2: values in the {@link io.millrace.runtime.state.serde.StateSerializer} encoding, shapes in the {@code schema} column. */
    private static final int VERSION = 2;

    /** One state as checkpointed. */
    record State(String name, String kind, boolean ttl) {}

    /** The layout of a snapshot's parts. */
    static StoreLayout of(List<StatePart> states, List<TimerPart> timers) {
        List<State> s = new ArrayList<>(states.size());
        for (StatePart p : states) {
            s.add(new State(p.name(), p.kind(), p.ttl()));
        }
        return new StoreLayout(List.copyOf(s), timers.stream().map(TimerPart::name).toList());
    }

    /** Stores this layout in {@code meta}, replacing the previous one. Task thread. */
    void writeTo(BytesColumn meta) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(VERSION);
            out.writeInt(states.size());
            for (State s : states) {
                out.writeUTF(s.name());
                out.writeUTF(s.kind());
                out.writeBoolean(s.ttl());
            }
            out.writeInt(timerServices.size());
            for (String t : timerServices) {
                out.writeUTF(t);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        meta.put(KEY, bytes.toByteArray());
    }

    /** The layout stored in {@code meta}; fails when there is none (the files are not an incremental snapshot). */
    static StoreLayout readFrom(BytesColumn meta, String source) throws IOException {
        byte[] row = meta.get(KEY);
        if (row == null) {
            throw new IOException(source + " holds no state layout: it is not an incremental snapshot of the RocksDB backend");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(row))) {
            int version = in.readInt();
            if (version != VERSION) {
                throw new IOException(source + " has state layout version " + version + ", this Millrace reads version " + VERSION
                        + (version == 1 ? " (version 1 was written before the schema dictionary; start the job without it)" : ""));
            }
            List<State> states = new ArrayList<>();
            for (int i = in.readInt(); i > 0; i--) {
                states.add(new State(in.readUTF(), in.readUTF(), in.readBoolean()));
            }
            List<String> timers = new ArrayList<>();
            for (int i = in.readInt(); i > 0; i--) {
                timers.add(in.readUTF());
            }
            return new StoreLayout(List.copyOf(states), List.copyOf(timers));
        }
    }
}
