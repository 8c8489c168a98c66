package io.millrace.runtime.window;

import io.millrace.runtime.state.StateSerializer;
import io.millrace.runtime.state.heap.GroupedState;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;

/**
 * The state of a {@link SliceTableWindowOperator}: slice accumulators by slice start, firing counts of
 * windows re-fired by late records by window end (only with allowed lateness), and per key group the time up
 * to which its windows have fired. Checkpointed by the heap backend per key group:
 *
 * <pre>
 *   long firedUpTo
 *   int slices;  per slice:  long start, int keys, keys x (key, accumulator)   (keys in insertion order)
 *   int windows; per window: long end,   int keys, keys x (key, Integer firings so far)
 * </pre>
 *
 * Keys and values go through {@link StateSerializer}. Restoring at another parallelism keeps each group's
 * fired-up-to time, so windows that fired before the checkpoint do not fire again. Task thread only; captures
 * are written on any thread under the {@link GroupedState} contract: the operator sets the backend's current
 * key before it changes a key group's tables, and stripes added or dropped later do not show in a capture.
 */
final class SliceStore implements GroupedState {
    final Stripes slices;
    final Stripes firings;
    private final int firstGroup;
    /** Per key group index: the fired-up-to time restored from a checkpoint, Long.MIN_VALUE when none. */
    private final long[] restoredFiredUpTo;
    private boolean restored;
    /** The operator's own fired-up-to time (watermark or processing time), kept current by the operator. */
    long firedUpTo = Long.MIN_VALUE;

    SliceStore(int firstGroup, int groups) {
        this.firstGroup = firstGroup;
        this.slices = new Stripes(groups);
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
    public Capture capture() {
        Stripes.View s = slices.view();
        Stripes.View f = firings.view();
        long[] fired = new long[restoredFiredUpTo.length];
        for (int i = 0; i < fired.length; i++) {
            fired[i] = firedUpTo(i);
        }
        return (keyGroup, out) -> {
            int group = keyGroup - firstGroup;
            StateSerializer values = new StateSerializer();
            out.writeLong(fired[group]);
            write(out, values, s, group);
            write(out, values, f, group);
        };
    }

    private static void write(DataOutputStream out, StateSerializer values, Stripes.View view, int group) throws IOException {
        int n = 0;
        for (SliceTable[] stripe : view.stripes()) {
            n += stripe[group] != null ? 1 : 0;
        }
        out.writeInt(n);
        for (int i = 0; i < view.ids().length; i++) {
            SliceTable t = view.stripes()[i][group];
            if (t == null) {
                continue;
            }
            out.writeLong(view.ids()[i]);
            out.writeInt(t.size());
            for (int p = 0; p < t.size(); p++) {
                values.write(out, t.key(p));
                values.write(out, t.value(p));
            }
        }
    }

    @Override
    public void restore(int keyGroup, DataInputStream in) throws IOException {
        int group = keyGroup - firstGroup;
        StateSerializer values = new StateSerializer();
        restoredFiredUpTo[group] = Math.max(restoredFiredUpTo[group], in.readLong());
        restored = true;
        read(in, values, slices, group);
        read(in, values, firings, group);
    }

    private static void read(DataInputStream in, StateSerializer values, Stripes into, int group) throws IOException {
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
            SliceTable t = into.table(in.readLong(), group);
            int keys = in.readInt();
            for (int k = 0; k < keys; k++) {
                Object key = values.read(in);
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
