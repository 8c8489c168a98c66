package io.millrace.runtime.window;

import io.millrace.runtime.state.heap.GroupedState;
import io.millrace.runtime.state.heap.GroupedState.LogicalForm;
import io.millrace.runtime.state.heap.GroupedState.LogicalGroup;
import io.millrace.runtime.state.serde.ByteReader;
import io.millrace.runtime.state.serde.ByteWriter;
import io.millrace.runtime.state.serde.ShapeDictionary;
import io.millrace.runtime.state.serde.StateSerializer;
import java.util.Arrays;

/**
 * The state of a {@link SliceTableWindowOperator}: slice accumulators by slice start, firing counts of
 * windows re-fired by late records by window end (only with allowed lateness), and per key group the time up
 * to which its windows have fired. Checkpointed by the heap backend per key group:
 *
 * <pre>
 *   long firedUpTo
 *   varint slices;  per slice:  long start, varint keys, keys x (key, accumulator)   (keys in insertion order)
 *   varint windows; per window: long end,   varint keys, keys x (key, Integer firings so far)
 * </pre>
 *
 * Keys go through a {@linkplain StateSerializer#forKeys key serializer}, accumulators and firing counts
 * through a {@linkplain StateSerializer#forValues value serializer}, over the shape dictionary the backend
 * keeps with the payload; so accumulator classes evolve as in any state, and one that no longer fits fails
 * the restore naming the state and operator. Restoring at another parallelism keeps each group's
 * fired-up-to time, so windows that fired before the checkpoint do not fire again. Task thread only; captures
 * are written on any thread under the {@link GroupedState} contract: the operator sets the backend's current
 * key before it changes a key group's tables, and stripes added or dropped later do not show in a capture. In a
 * savepoint the store is written in the canonical form of time-window state ({@link SliceStoreForm}), which
 * {@link SlicingWindowOperator} on any backend restores, and is restored from it.
 */
final class SliceStore implements GroupedState {
    final Stripes slices;
    final Stripes firings;
    private final String name;
    /** When the windows fire and are cleaned up; null when the store has no savepoint form. */
    private final SliceTiming timing;
    /** How slice accumulators are packed; null when they are objects. */
    private final Packing packing;
    private final int firstGroup;
    /** Per key group index: the fired-up-to time restored from a checkpoint, Long.MIN_VALUE when none. */
    private final long[] restoredFiredUpTo;
    private boolean restored;
    /** The operator's own fired-up-to time (watermark or processing time), kept current by the operator. */
    long firedUpTo = Long.MIN_VALUE;

    /** The store of state {@code name} for the key groups {@code firstGroup} to {@code firstGroup + groups - 1}. */
    SliceStore(String name, int firstGroup, int groups) {
        this(name, firstGroup, groups, null);
    }

    /** {@link #SliceStore(String, int, int)} whose slice accumulators are packed by {@code packing} (null: objects). */
    SliceStore(String name, int firstGroup, int groups, Packing packing) {
        this(name, firstGroup, groups, packing, null);
    }

    /**
     * {@link #SliceStore(String, int, int, Packing)} of windows with this {@code timing}, which gives the store its
     * canonical savepoint form ({@link SliceStoreForm}); null: the store has none.
     */
    SliceStore(String name, int firstGroup, int groups, Packing packing, SliceTiming timing) {
        this.timing = timing;
        this.name = name;
        this.firstGroup = firstGroup;
        this.packing = packing;
        this.slices = new Stripes(groups, packing);
        this.firings = new Stripes(groups);
        this.restoredFiredUpTo = new long[groups];
        Arrays.fill(restoredFiredUpTo, Long.MIN_VALUE);
    }

    /** The time up to which the windows of key group index {@code group} have fired. */
    long firedUpTo(int group) {
        return restored ? Math.max(firedUpTo, restoredFiredUpTo[group]) : firedUpTo;
    }

    /** Whether a window with this max timestamp fired for key group index {@code group} before a restore. */
    boolean firedBeforeRestore(int group, long maxTimestamp) {
        return restored && maxTimestamp <= restoredFiredUpTo[group];
    }

    @Override
    public LogicalForm logicalForm() {
        return timing == null ? null : SliceStoreForm.of(timing);
    }

    @Override
    public void restoreLogical(int keyGroup, LogicalGroup group, String context) {
        int g = keyGroup - firstGroup;
        long done = SliceStoreForm.restore(timing, group, this, g, context);
        if (done != Long.MIN_VALUE) {
            restoredFiredUpTo[g] = Math.max(restoredFiredUpTo[g], done);
            restored = true;
        }
    }

    @Override
    public Capture capture() {
        Stripes.View s = slices.view();
        Stripes.View f = firings.view();
        long[] fired = new long[restoredFiredUpTo.length];
        for (int i = 0; i < fired.length; i++) {
            fired[i] = firedUpTo(i);
        }
        return new StoreCapture(s.ids(), groupTables(s), f.ids(), groupTables(f), fired, newScratch());
    }

    /** An accumulator for a capture to unpack packed values into, made on the task thread; null when not packed. */
    private Object newScratch() {
        return packing == null ? null : packing.newInstance();
    }

    /** The tables of a view, by group index then stripe. */
    private static SliceTable[][] groupTables(Stripes.View view) {
        int groups = view.stripes().length == 0 ? 0 : view.stripes()[0].length;
        SliceTable[][] byGroup = new SliceTable[groups][];
        for (int g = 0; g < groups; g++) {
            SliceTable[] row = new SliceTable[view.ids().length];
            for (int i = 0; i < row.length; i++) {
                row[i] = view.stripes()[i][g];
            }
            byGroup[g] = row;
        }
        return byGroup;
    }

    /**
     * A checkpoint's view of the store: per group index, the tables of each slice and of each re-fired window.
     * When the task is about to change a group the writer has not written, {@link #copyGroup} copies that group's
     * tables if their values are immutable (reduce results of record type, boxed counts, firing counts), so the
     * task thread copies references instead of serializing them.
     */
    private final class StoreCapture implements Capture {
        private final long[] sliceIds;
        private final SliceTable[][] sliceTables;
        private final long[] windowIds;
        private final SliceTable[][] windowTables;
        private final long[] fired;
        /** What packed values are unpacked into for writing, one at a time (writes of groups may run concurrently). */
        private final Object scratch;

        StoreCapture(long[] sliceIds, SliceTable[][] sliceTables, long[] windowIds, SliceTable[][] windowTables, long[] fired,
                Object scratch) {
            this.sliceIds = sliceIds;
            this.sliceTables = sliceTables;
            this.windowIds = windowIds;
            this.windowTables = windowTables;
            this.fired = fired;
            this.scratch = scratch;
        }

        @Override
        public void write(int keyGroup, ShapeDictionary shapes, ByteWriter out) {
            int group = keyGroup - firstGroup;
            ClassLoader loader = StateSerializer.userClassLoader();
            StateSerializer keys = StateSerializer.forKeys(shapes, loader, null);
            StateSerializer values = StateSerializer.forValues(shapes, name, loader, null);
            out.writeLong(fired[group]);
            if (scratch == null) {
                SliceStore.write(out, keys, values, sliceIds, row(sliceTables, group), null);
            } else {
                synchronized (scratch) {
                    SliceStore.write(out, keys, values, sliceIds, row(sliceTables, group), scratch);
                }
            }
            SliceStore.write(out, keys, values, windowIds, row(windowTables, group), null);
        }

        @Override
        public LogicalGroup writeLogical(int keyGroup) {
            int group = keyGroup - firstGroup;
            return SliceStoreForm.write(timing, sliceIds, row(sliceTables, group), windowIds, row(windowTables, group),
                    fired[group], packing);
        }

        @Override
        public Capture copyGroup(int keyGroup) {
            int group = keyGroup - firstGroup;
            SliceTable[] slicesCopy = copyRow(row(sliceTables, group));
            SliceTable[] windowsCopy = slicesCopy == null ? null : copyRow(row(windowTables, group));
            if (windowsCopy == null) {
                return null;
            }
            SliceTable[][] s = new SliceTable[group + 1][];
            s[group] = slicesCopy;
            SliceTable[][] w = new SliceTable[group + 1][];
            w[group] = windowsCopy;
            return new StoreCapture(sliceIds, s, windowIds, w, fired, newScratch());
        }

        private static SliceTable[] row(SliceTable[][] byGroup, int group) {
            return group < byGroup.length ? byGroup[group] : null;
        }

        /** Copies of the tables (none for a view without stripes), or null when one holds a mutable object. */
        private static SliceTable[] copyRow(SliceTable[] row) {
            if (row == null) {
                return new SliceTable[0];
            }
            SliceTable[] copy = new SliceTable[row.length];
            for (int i = 0; i < row.length; i++) {
                if (row[i] != null && (copy[i] = row[i].copyIfImmutable()) == null) {
                    return null;
                }
            }
            return copy;
        }
    }

    /** Writes the tables of one group; packed values are unpacked into {@code scratch} one by one. */
    private static void write(ByteWriter out, StateSerializer keys, StateSerializer values, long[] ids, SliceTable[] tables,
            Object scratch) {
        int n = 0;
        for (int i = 0; tables != null && i < tables.length; i++) {
            n += tables[i] != null ? 1 : 0;
        }
        out.writeVarInt(n);
        for (int i = 0; n > 0 && i < ids.length; i++) {
            SliceTable t = tables[i];
            if (t == null) {
                continue;
            }
            out.writeLong(ids[i]);
            out.writeVarInt(t.size());
            for (int p = 0; p < t.size(); p++) {
                keys.write(t.key(p), out);
                values.write(t.valueInto(p, scratch), out);
            }
        }
    }

    @Override
    public void restore(int keyGroup, ShapeDictionary shapes, ByteReader in, String context) {
        int group = keyGroup - firstGroup;
        ClassLoader loader = StateSerializer.userClassLoader();
        StateSerializer keys = StateSerializer.forKeys(shapes, loader, "the keys of " + context);
        StateSerializer values = StateSerializer.forValues(shapes, null, loader, context);
        restoredFiredUpTo[group] = Math.max(restoredFiredUpTo[group], in.readLong());
        restored = true;
        read(in, keys, values, slices, group);
        read(in, keys, values, firings, group);
    }

    private static void read(ByteReader in, StateSerializer keys, StateSerializer values, Stripes into, int group) {
        int n = in.readVarInt();
        for (int i = 0; i < n; i++) {
            SliceTable t = into.table(in.readLong(), group);
            int count = in.readVarInt();
            for (int k = 0; k < count; k++) {
                Object key = keys.read(in);
                Object value = values.read(in);
                int p = t.find(key, key.hashCode());
                if (p < 0) {
                    t.add(key, key.hashCode(), value);
                } else {
                    t.setValue(p, value);
                }
            }
        }
    }

    @Override
    public long entryCount() {
        return slices.entryCount() + firings.entryCount();
    }
}
