package io.millrace.runtime.window;

import io.millrace.api.functions.KeySelector;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.EmitPoint;
import io.millrace.operator.OneInputOperator;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.UserFunctionException;
import io.millrace.runtime.exchange.KeyExtractionException;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * The first phase of two-phase window aggregation: chained in the producing subtask right before a window's
 * keyed exchange (see {@link LocalWindowAggregation}), it folds the records per slice of the window layout and
 * per key, in arrival order, with the window's reduce or aggregate function, and sends one
 * {@link PartialAggregate} per (key, slice) instead of every record. The window operator folds the partials of
 * a key in arrival order too, so results are those of the records sent one by one (for associative functions,
 * as the API demands).
 *
 * <p>When partials go out, so that nothing is ever held past a point where the window operator could need it:
 * <ul>
 *   <li>before a watermark {@code W} is forwarded, those of every slice whose first window ends at or before
 *       {@code W + 1} (a window containing the slice may fire at {@code W}); the final watermark emits all;
 *   <li>before a checkpoint barrier and before the subtask turns idle: all of them. The operator therefore has
 *       no state;
 *   <li>whenever the subtask runs out of input and waits ({@link EmitPoint#WAITING_FOR_INPUT}), once the oldest partial has been
 *       held for {@link #HOLD_ON_WAIT_NANOS}: all of them. A subtask with time to spare gains little by holding
 *       partials long, and a window's last partials would reach the window operator in one burst with its
 *       watermark, which the window's results would wait for; but a paced source waits every 100 µs or so, and
 *       sending at each of those waits would leave next to nothing combined. A busy subtask never waits, and
 *       combines as much as the other bounds let it;
 *   <li>when more than {@code maxKeys} (key, slice) partials are held: all of them.
 * </ul>
 * A partial's timestamp is that of the first record of its slice seen since the slice's last emission. Per
 * record: the key, one hash lookup and the fold; no allocation beyond what the function makes. Task thread only.
 */
final class LocalWindowAggregator extends AbstractStreamOperator<Object> implements OneInputOperator<Object, Object> {
    /** Emptied tables kept for the next slices; more are dropped. */
    private static final int SPARE_TABLES = 4;

    private final SliceLayout layout;
    private final WindowContents<Object, Object> contents;
    private final KeySelector<Object, Object> keySelector;
    private final int maxKeys;
    /**
     * The open slices, in no order: start, timestamp of their partials, the watermark at which they go out, the
     * table from key to partial, and the number of records in each partial (by table position).
     */
    private long[] starts = new long[4];
    private long[] stamps = new long[4];
    private long[] due = new long[4];
    private SliceTable[] tables = new SliceTable[4];
    private int[][] counts = new int[4][];
    private int open;
    /** Partials held over all open slices. */
    private int held;
    /** When the oldest partial held was started ({@link io.millrace.api.time.Clock#nanoTime}). */
    private long heldSince;
    /** How long partials are held at least before a wait for input sends them. */
    static final long HOLD_ON_WAIT_NANOS = 2_000_000;
    /** The smallest {@link #due} of the open slices; {@code Long.MAX_VALUE} when none is open. */
    private long nextDue = Long.MAX_VALUE;
    /** Index of the previous record's slice, or -1: records mostly share a slice. */
    private int last = -1;
    private final ArrayDeque<SliceTable> spare = new ArrayDeque<>();
    private final ArrayDeque<int[]> spareCounts = new ArrayDeque<>();
    /**
     * How this aggregate function's accumulators pack, when they pack in at most {@link PartialAggregate#MAX_PACKED}
     * longs: the slice tables then keep them packed and partials carry the numbers alone, so that neither this
     * thread (emitting) nor the window operator's (folding) loads an accumulator object made long before or on
     * another thread. Null otherwise: objects.
     */
    private final Packing packing;
    /** The instance a packed accumulator is unpacked into to fold a record; null unless {@link #packing}. */
    private final Object addScratch;
    /** The operator's quoted name, for errors; built once at open, not per record. */
    private String where;

    @SuppressWarnings("unchecked")
    LocalWindowAggregator(LocalWindowAggregateSpec spec) {
        this.layout = SliceLayout.of(spec.windows());
        this.contents = WindowContents.of(spec.reducer(), spec.aggregator());
        this.keySelector = (KeySelector<Object, Object>) spec.keySelector();
        this.maxKeys = spec.maxKeys();
        Packing p = spec.reducer() == null ? Packing.of(spec.aggregator()) : null;
        this.packing = p != null && p.width <= PartialAggregate.MAX_PACKED ? p : null;
        this.addScratch = packing == null ? null : packing.newInstance();
    }

    @Override
    public void open(OperatorContext context, Output<Object> output) throws Exception {
        super.open(context, output);
        where = "'" + context.operatorName() + "'";
    }

    @Override
    public void processRecord(Object value, long timestamp) {
        if (timestamp == Long.MIN_VALUE) {
            throw WindowOperatorBase.withoutTimestamp(context.operatorName());
        }
        Object key;
        try {
            key = keySelector.getKey(value); // called here, not in a shared helper: see KeyExtractionException
        } catch (Exception e) {
            throw KeyExtractionException.failed(where, value, e);
        }
        if (key == null) {
            throw KeyExtractionException.nullKey(where, value);
        }
        int i = last;
        if (i < 0 || Long.compareUnsigned(timestamp - starts[i], layout.slice()) >= 0) {
            i = sliceOf(timestamp);
        }
        SliceTable table = tables[i];
        int hash = key.hashCode();
        try {
            int p = table.find(key, hash);
            if (p < 0) {
                p = table.add(key, hash, contents.add(null, value));
                int[] c = counts[i];
                if (p == c.length) {
                    counts[i] = c = Arrays.copyOf(c, p * 2);
                }
                c[p] = 1;
                if (held++ == 0) {
                    heldSince = context.clock().nanoTime();
                }
            } else if (packing != null) {
                table.setValue(p, contents.add(table.valueInto(p, addScratch), value));
                counts[i][p]++;
            } else {
                Object acc = table.value(p);
                Object updated = contents.add(acc, value);
                if (updated != acc) {
                    table.setValue(p, updated);
                }
                counts[i][p]++;
            }
        } catch (Exception e) {
            throw UserFunctionException.of(context, value, e);
        }
        if (held > maxKeys) {
            emitAll();
        }
    }

    /** The index of the open slice holding {@code timestamp}, opened if needed; sets {@link #last}. */
    private int sliceOf(long timestamp) {
        long start = layout.sliceStart(timestamp);
        for (int i = 0; i < open; i++) {
            if (starts[i] == start) {
                last = i;
                return i;
            }
        }
        if (open == starts.length) {
            int capacity = open * 2;
            starts = Arrays.copyOf(starts, capacity);
            stamps = Arrays.copyOf(stamps, capacity);
            due = Arrays.copyOf(due, capacity);
            tables = Arrays.copyOf(tables, capacity);
            counts = Arrays.copyOf(counts, capacity);
        }
        int i = open++;
        starts[i] = start;
        stamps[i] = timestamp;
        long firstEnd = layout.firstWindowEnd(start);
        due[i] = firstEnd < start ? Long.MAX_VALUE : firstEnd - 1; // a window end past Long.MAX_VALUE fires only at the end
        nextDue = Math.min(nextDue, due[i]);
        SliceTable table = spare.poll();
        tables[i] = table != null ? table : new SliceTable(packing);
        int[] c = spareCounts.poll();
        counts[i] = c != null ? c : new int[16];
        last = i;
        return i;
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        if (watermark == Long.MAX_VALUE) {
            emitAll();
        } else if (watermark >= nextDue) {
            emitDue(watermark);
        }
        super.processWatermark(watermark);
    }

    @Override
    public void emitHeldBack(EmitPoint point) {
        switch (point) {
            case CHECKPOINT_BARRIER, IDLE -> emitAll();
            case WAITING_FOR_INPUT -> {
                if (held > 0 && context.clock().nanoTime() - heldSince >= HOLD_ON_WAIT_NANOS) {
                    emitAll();
                }
            }
            case OUTPUT_FLUSH -> { }
        }
    }

    /** Emits the partials of the slices whose first window may fire at {@code watermark}. */
    private void emitDue(long watermark) {
        long next = Long.MAX_VALUE;
        int i = 0;
        while (i < open) {
            if (due[i] <= watermark) {
                emitSlice(i);
                removeSlice(i);
            } else {
                next = Math.min(next, due[i]);
                i++;
            }
        }
        nextDue = next;
    }

    /** Emits every partial held, oldest slice first, and closes every slice. */
    private void emitAll() {
        while (open > 0) {
            int oldest = 0;
            for (int i = 1; i < open; i++) {
                if (starts[i] < starts[oldest]) {
                    oldest = i;
                }
            }
            emitSlice(oldest);
            removeSlice(oldest);
        }
        nextDue = Long.MAX_VALUE;
    }

    private void emitSlice(int i) {
        SliceTable table = tables[i];
        int[] c = counts[i];
        long timestamp = stamps[i];
        int n = table.size();
        boolean numeric = table.numericKeys();
        for (int p = 0; p < n; p++) {
            long number = numeric ? table.keyNumber(p) : 0L;
            PartialAggregate partial = packing == null
                    ? new PartialAggregate(table.key(p), table.hash(p), numeric, number, table.value(p), c[p])
                    : new PartialAggregate(table.key(p), table.hash(p), numeric, number, null, c[p], packing.width,
                            table.packedLong(p, 0), packing.width > 1 ? table.packedLong(p, 1) : 0L);
            output.emit(partial, timestamp);
        }
        held -= n;
    }

    /** Closes slice {@code i}: its table is emptied for reuse, the last open slice takes its index. */
    private void removeSlice(int i) {
        SliceTable table = tables[i];
        if (spare.size() < SPARE_TABLES) {
            table.clear();
            spare.push(table);
            spareCounts.push(counts[i]);
        }
        int end = --open;
        starts[i] = starts[end];
        stamps[i] = stamps[end];
        due[i] = due[end];
        tables[i] = tables[end];
        tables[end] = null;
        counts[i] = counts[end];
        counts[end] = null;
        last = -1;
    }
}
