package io.millrace.runtime.window;

import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.WindowSpec;
import io.millrace.runtime.state.ReadAhead;
import io.millrace.runtime.state.heap.HeapKeyedStateBackend;
import java.util.ArrayList;

/**
 * Tumbling and sliding time windows with the default trigger on the heap backend, slice-major: per slice of
 * {@code gcd(size, slide)} ms and per key group, a table from key to accumulator ({@link SliceStore}). A
 * record costs one table lookup. Windows fire without timers: when the watermark (or processing time) moves,
 * each window whose end it passed fires once for all its keys, walking the tables of the window's slices key
 * group by key group (results come out by window end, then key group, then first arrival of the key); then the
 * slices that no window needs any more are dropped whole. With allowed lateness a late record fires the windows
 * it updates again for its key (firing index 1, 2, ...). Accumulators that implement {@link
 * io.millrace.api.functions.PackedAccumulator} are kept as numbers in the tables ({@link Packing}): updating or
 * firing one unpacks it into a reused instance, and firing a window of one slice into a new one. Task thread only.
 */
final class SliceTableWindowOperator extends WindowOperatorBase {
    static final String STATE_NAME = "window-slices";

    private final SliceLayout layout;
    /** The accumulators of the key being fired, oldest slice first. */
    final ArrayList<Object> windowSlices = new ArrayList<>();
    private HeapKeyedStateBackend heap;
    /** How the tables pack accumulators; null when they hold objects. */
    private Packing packing;
    /** The instance a packed accumulator is unpacked into for {@code add}. */
    private Object addScratch;
    /** The numbers of a partial that travels packed, and the instance they are unpacked into to be merged. */
    private final long[] partialNumbers = new long[PartialAggregate.MAX_PACKED];
    private Object partialScratch;
    /** The instances packed accumulators are unpacked into for firing a window of several slices, one per slice. */
    private final ArrayList<Object> fireScratch = new ArrayList<>();
    private SliceStore store;
    private int firstGroup;
    private final WindowKeys windowKeys = new WindowKeys();
    /** Fires windows of several tables of numeric keys straight from the tables, where it can. */
    private final RangeFiring rangeFirer = new RangeFiring(this);
    /** Whether {@link RangeFiring} is tried (always, but for tests that compare it with the union). */
    private boolean rangeFiring = true;
    /** Key groups of windows of several tables fired by {@link #fireUnion}; for tests. */
    private long firedByUnion;
    /** The slice of the previous record and its first and last window ends: records mostly share a slice. */
    private long cachedSlice = Long.MAX_VALUE;
    private long cachedFirstEnd;
    private long cachedLastEnd;
    /** Kept only so that the compiler keeps the reads of {@link ReadAhead} (always 0). */
    private int readAhead;

    /** {@code partials}: fed by a {@link LocalWindowAggregator} (see {@link WindowOperatorBase}). */
    SliceTableWindowOperator(WindowSpec spec, boolean partials) {
        super(spec, partials);
        this.layout = SliceLayout.of((TimeWindows) spec.assigner());
    }

    @Override
    void openState() throws Exception {
        heap = (HeapKeyedStateBackend) backend;
        firstGroup = heap.keyGroupRange().start();
        packing = spec.reducer() == null ? Packing.of(spec.aggregator()) : null;
        addScratch = packing == null ? null : packing.newInstance();
        partialScratch = packing == null ? null : packing.newInstance();
        store = new SliceStore(STATE_NAME, firstGroup, heap.keyGroupRange().size(), packing,
                new SliceTiming(layout, lateness, eventTime));
        heap.registerGroupedState(STATE_NAME, store);
    }

    @Override
    void onRecord(Object value, long timestamp, long time) throws Exception {
        int group = recordKeyGroup - firstGroup;
        long done = store.firedUpTo(group);
        if (!eventTime && time <= done) {
            // A processing-time record is never late, also after a restore, before this instance hears the
            // processing time up to which the group's windows fired.
            time = done + 1;
        }
        long slice = cachedSlice;
        if (time < slice || Long.compareUnsigned(time - slice, layout.slice()) >= 0) {
            slice = layout.sliceStart(time);
            cachedSlice = slice;
            cachedFirstEnd = layout.firstWindowEnd(slice);
            cachedLastEnd = layout.lastWindowEnd(slice);
        }
        long lastEnd = cachedLastEnd;
        if (expired(lastEnd - 1, done)) {
            late(value, timestamp);
            return;
        }
        Object key = recordKey;
        // A partial brings its key's hash and number (see PartialAggregate): the key object is not loaded.
        int hash;
        boolean numeric;
        long number;
        if (partials) {
            PartialAggregate partial = (PartialAggregate) value;
            hash = partial.hash();
            numeric = partial.numeric();
            number = partial.number();
        } else {
            hash = key.hashCode();
            numeric = key instanceof Long;
            number = numeric ? (Long) key : 0L;
        }
        SliceTable table = store.slices.table(slice, group);
        int p = table.find(key, hash, numeric, number);
        // a partial whose accumulator travels packed as the table packs it: its numbers are used, not its object
        PartialAggregate packedPartial = partials && packing != null && ((PartialAggregate) value).packedAs(packing.width)
                ? (PartialAggregate) value : null;
        if (p < 0) {
            boolean shared = layout.size() > layout.slice() && !(numeric && table.numericKeys());
            Object stored = shared ? sharedKey(key, hash, numeric, number, slice, group) : key;
            if (packedPartial != null) {
                table.addPacked(stored, hash, numeric, number, packedPartial);
            } else {
                table.add(stored, hash, numeric, number, contents.add(null, value));
            }
        } else if (packedPartial != null) {
            Object incoming = packedPartial.unpackInto(packing, partialNumbers, partialScratch);
            table.setValue(p, contents.merge(table.valueInto(p, addScratch), incoming));
        } else if (packing != null) {
            table.setValue(p, contents.add(table.valueInto(p, addScratch), value));
        } else {
            Object acc = table.value(p);
            Object updated = contents.add(acc, value);
            if (updated != acc) {
                table.setValue(p, updated);
            }
        }
        long firstEnd = cachedFirstEnd;
        if (lateness > 0 && firstEnd - 1 <= done) {
            refireLateWindows(key, hash, group, slice, p >= 0, firstEnd, lastEnd, done);
        }
    }

    /**
     * The instance of {@code key} that the previous slice of the key group stores, else {@code key}: when the
     * slices of a window share one key object, firing them matches keys by identity and reads one object
     * per key instead of one per slice (keys are immutable, so any equal instance will do). Only for windows of
     * several slices (a window of one slice fires without matching keys) and tables that keep key objects (a table
     * of {@code Long} keys keeps their numbers, which firing matches as numbers).
     */
    private Object sharedKey(Object key, int hash, boolean numeric, long number, long slice, int group) {
        SliceTable before = store.slices.tableBefore(slice, group);
        int p = before == null ? -1 : before.find(key, hash, numeric, number);
        return p < 0 ? key : before.key(p);
    }

    private boolean expired(long maxTimestamp, long done) {
        return maxTimestamp != Long.MAX_VALUE && cleanupTime(maxTimestamp) <= done;
    }

    /**
     * Fires again, for the record's key, the windows of its slice that already fired and are within the allowed
     * lateness. A window's firing index is its stored count, or else 1 if the key had contents in it before this
     * record (it fired on time), 0 if not.
     */
    private void refireLateWindows(Object key, int hash, int group, long slice, boolean hadSlice, long firstEnd,
            long lastEnd, long done) throws Exception {
        for (long end = firstEnd; end <= lastEnd && end - 1 <= done; end += layout.slide()) {
            if (expired(end - 1, done)) {
                continue;
            }
            SliceTable counts = store.firings.table(end, group);
            int p = counts.find(key, hash);
            int firing;
            if (p >= 0) {
                firing = (Integer) counts.value(p);
                counts.setValue(p, firing + 1);
            } else {
                firing = hadSlice || hasContents(key, hash, group, end, slice) ? 1 : 0;
                counts.add(key, hash, firing + 1);
            }
            collectKey(key, hash, group, end);
            emit(key, new TimeWindow(end - layout.size(), end), firing);
        }
    }

    /** Whether the key has contents in window {@code end} outside the slice {@code except}. */
    private boolean hasContents(Object key, int hash, int group, long end, long except) {
        for (int i = store.slices.indexAtOrAfter(end - layout.size()); i < store.slices.count() && store.slices.id(i) < end; i++) {
            SliceTable t = store.slices.at(i)[group];
            if (store.slices.id(i) != except && t != null && t.find(key, hash) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** Puts the key's accumulators of window {@code end} into {@link #windowSlices}, oldest first. */
    private void collectKey(Object key, int hash, int group, long end) {
        windowSlices.clear();
        for (int i = store.slices.indexAtOrAfter(end - layout.size()); i < store.slices.count() && store.slices.id(i) < end; i++) {
            SliceTable t = store.slices.at(i)[group];
            Object acc = t == null ? null : t.get(key, hash);
            if (acc != null) {
                windowSlices.add(acc);
            }
        }
    }

    @Override
    void onTimeAdvanced(long before, long now) throws Exception {
        store.firedUpTo = now;
        if (now <= before) {
            return;
        }
        long end = firstUnfiredEnd(before);
        Stripes slices = store.slices;
        int i = 0;
        while ((i = firstSliceReaching(end, i)) < slices.count()) {
            end = Math.max(end, layout.firstWindowEnd(slices.id(i)));
            if (end - 1 > now) {
                break;
            }
            fire(end);
            end += layout.slide();
        }
        dropExpired();
    }

    /** The end of the first window that a watermark of {@code watermark} has not fired ({@code Long.MIN_VALUE}: none fired). */
    private long firstUnfiredEnd(long watermark) {
        return watermark == Long.MIN_VALUE ? Long.MIN_VALUE : firstEndAfter(watermark);
    }

    /** The first slice from index {@code i} on that a window ending at or after {@code end} holds; the count if none. */
    private int firstSliceReaching(long end, int i) {
        Stripes slices = store.slices;
        while (i < slices.count() && layout.lastWindowEnd(slices.id(i)) < end) {
            i++;
        }
        return i;
    }

    /**
     * The end of the first window not fired yet, minus 1, when event-time windows and nothing else (no timer of the
     * backend) wait for the watermark: below it a watermark fires nothing here ({@link #onTimeAdvanced} drops
     * expired slices, which can wait). {@code Long.MAX_VALUE} when there are no slices.
     */
    @Override
    public long watermarkToAct() {
        if (!eventTime || backend.eventTimeTimerCount() > 0) {
            return Long.MIN_VALUE;
        }
        // the first window onTimeAdvanced would fire
        Stripes slices = store.slices;
        long end = firstUnfiredEnd(currentWatermark);
        int i = firstSliceReaching(end, 0);
        if (i == slices.count()) {
            return Long.MAX_VALUE;
        }
        end = Math.max(end, layout.firstWindowEnd(slices.id(i)));
        return end == Long.MIN_VALUE ? Long.MIN_VALUE : end - 1;
    }

    /** Turns {@link #fireByRanges} off or on; for tests that compare its results with the union's. */
    void rangeFiring(boolean on) {
        rangeFiring = on;
    }

    /** How many times a window's key group of several tables fired by ranges; for tests. */
    long firedByRanges() {
        return rangeFirer.fired();
    }

    /** How many times a window's key group of several tables fired by a union of their keys; for tests. */
    long firedByUnion() {
        return firedByUnion;
    }

    /** Whether the tables keep accumulators packed; for tests. */
    boolean packsAccumulators() {
        return packing != null;
    }

    /** The end of the first window that ends after {@code time + 1}, i.e. that a time of {@code time} has not fired. */
    private long firstEndAfter(long time) {
        long t = time + 1 - layout.size();
        if (t > time) {
            return Long.MIN_VALUE;
        }
        return layout.windowStartAtOrBefore(t) + layout.size() + layout.slide();
    }

    /** Fires window {@code [end - size, end)} for every key with contents in it, key group by key group. */
    private void fire(long end) throws Exception {
        Stripes slices = store.slices;
        int from = slices.indexAtOrAfter(end - layout.size());
        int to = slices.indexAtOrAfter(end);
        if (from == to) {
            return;
        }
        TimeWindow window = new TimeWindow(end - layout.size(), end);
        int groups = heap.keyGroupRange().size();
        for (int group = 0; group < groups; group++) {
            if (store.firedBeforeRestore(group, end - 1)) {
                continue;
            }
            SliceTable only = null;
            int tables = 0;
            for (int i = from; i < to; i++) {
                SliceTable t = slices.at(i)[group];
                if (t != null) {
                    only = t;
                    tables++;
                }
            }
            if (tables == 1) {
                fireTable(only, group, window);
            } else if (tables > 1 && !(rangeFiring && rangeFirer.fire(store.slices, from, to, group, window))) {
                fireUnion(from, to, group, window);
            }
        }
    }

    /** Fires the keys of a window whose only table in this key group is {@code table}. */
    private void fireTable(SliceTable table, int group, TimeWindow window) throws Exception {
        int n = table.size();
        for (int p = 0; p < n; p++) {
            if (p % ReadAhead.BATCH == 0) {
                readAhead += table.readAhead(p, Math.min(n, p + ReadAhead.BATCH));
            }
            Object key = table.key(p);
            windowSlices.add(table.value(p));
            heap.setCurrentKey(key, group + firstGroup);
            emit(key, window, 0);
        }
    }

    /** Fires the keys of a window that has several tables in this key group: each key once, with its slices oldest first. */
    private void fireUnion(int from, int to, int group, TimeWindow window) throws Exception {
        WindowKeys keys = windowKeys;
        firedByUnion++;
        for (int i = from; i < to; i++) {
            SliceTable t = store.slices.at(i)[group];
            if (t != null) {
                boolean numeric = t.numericKeys();
                for (int p = 0; p < t.size(); p++) {
                    keys.add(numeric ? null : t.key(p), t.hash(p), numeric, numeric ? t.keyNumber(p) : 0L,
                            packing != null ? t : t.value(p), p);
                }
            }
        }
        try {
            int n = keys.size();
            for (int k = 0; k < n; k++) {
                if (k % ReadAhead.BATCH == 0) {
                    readAhead += keys.readAhead(k, Math.min(n, k + ReadAhead.BATCH));
                }
                Object key = keys.key(k);
                if (packing == null) {
                    keys.collect(k, windowSlices);
                } else {
                    keys.collectPacked(k, windowSlices, fireScratch, packing);
                }
                heap.setCurrentKey(key, group + firstGroup);
                emit(key, window, 0);
            }
        } finally {
            keys.clear();
        }
    }

    /** Fires one key of {@code window}: its slices are in {@link #windowSlices}. */
    void fireKey(Object key, int group, TimeWindow window) throws Exception {
        heap.setCurrentKey(key, group + firstGroup);
        emit(key, window, 0);
    }

    /** The {@code j}th instance packed accumulators are unpacked into for firing (null when nothing is packed). */
    Object fireScratch(int j) {
        while (j >= fireScratch.size()) {
            fireScratch.add(packing == null ? null : packing.newInstance());
        }
        return fireScratch.get(j);
    }

    private void emit(Object key, TimeWindow window, int firing) throws Exception {
        emission.start(key, window, firing, currentWatermark);
        contents.emit(windowSlices, emission);
        windowSlices.clear();
    }

    /** Drops the slices whose last window is past its allowed lateness, and the firing counts of such windows. */
    private void dropExpired() {
        Stripes slices = store.slices;
        int n = 0;
        while (n < slices.count() && expired(layout.lastWindowEnd(slices.id(n)) - 1)) {
            n++;
        }
        slices.dropFirst(n);
        Stripes firings = store.firings;
        n = 0;
        while (n < firings.count() && expired(firings.id(n) - 1)) {
            n++;
        }
        firings.dropFirst(n);
    }
}
