package io.millrace.runtime.window;

import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.WindowSpec;
import io.millrace.runtime.state.NamespacedState;
import io.millrace.runtime.timer.InternalTimerService;
import io.millrace.runtime.timer.Triggerable;
import java.util.ArrayList;
import java.util.function.BiConsumer;

/**
 * Tumbling and sliding time windows with the default trigger, computed from shared slices of
 * {@code gcd(size, slide)} ms. Per record: one state lookup (the slice's accumulator), plus one timer
 * registration when the record opens a new slice. A window fires by one timer per (key, window end); after
 * firing, the timer of the next window of the key that has contents is registered (a chain), so records do
 * not register a timer per window. With allowed lateness a late record fires the windows it updates again
 * (firing index 1, 2, ...); a window's last slices and firing count are removed at its cleanup time.
 */
final class SlicingWindowOperator extends WindowOperatorBase implements Triggerable<SlicingWindowOperator.Timer> {
    /** Timer namespaces; the timer's time identifies the window: {@code end - 1} or its cleanup time. */
    enum Timer {
        FIRE,
        CLEANUP
    }

    private final SliceLayout layout;
    private final SliceNamespaces namespaces;
    private final ArrayList<Object> windowSlices = new ArrayList<>();
    private final NextSlice nextSlice = new NextSlice();
    private NamespacedState<Long, Object> slices;
    /** Firings so far per window end; only with allowed lateness (otherwise every firing is the first). */
    private NamespacedState<Long, Integer> firings;
    private InternalTimerService<Timer> timers;

    SlicingWindowOperator(WindowSpec spec) {
        this(spec, false);
    }

    /** {@code partials}: fed by a {@link LocalWindowAggregator} (see {@link WindowOperatorBase}). */
    SlicingWindowOperator(WindowSpec spec, boolean partials) {
        super(spec, partials);
        this.layout = SliceLayout.of((TimeWindows) spec.assigner());
        this.namespaces = new SliceNamespaces(layout.slice());
    }

    @Override
    void openState() {
        slices = backend.namespacedState("window-slices");
        firings = lateness > 0 ? backend.namespacedState("window-firings") : null;
        timers = backend.timerService("window-timers", this);
    }

    @Override
    void onRecord(Object value, long timestamp, long time) throws Exception {
        long slice = layout.sliceStart(time);
        long lastEnd = layout.lastWindowEnd(slice);
        if (expired(lastEnd - 1)) {
            late(value, timestamp);
            return;
        }
        Long namespace = namespaces.of(slice);
        Object acc = slices.get(namespace);
        Object updated = contents.add(acc, value);
        if (updated != acc) {
            slices.put(namespace, updated);
        }
        long firstEnd = layout.firstWindowEnd(slice);
        long done = firedUpTo();
        if (firstEnd - 1 <= done) {
            refireLateWindows(firstEnd, lastEnd, done);
        }
        if (acc == null) {
            long due = firstEnd - 1 > done ? firstEnd : firstEnd + (done + 1 - firstEnd) / layout.slide() * layout.slide() + layout.slide();
            if (due <= lastEnd) {
                registerTimer(Timer.FIRE, due - 1);
            }
        }
    }

    /** The windows of a late record that already fired but are within the allowed lateness fire again. */
    private void refireLateWindows(long firstEnd, long lastEnd, long done) throws Exception {
        for (long end = firstEnd; end <= lastEnd && end - 1 <= done; end += layout.slide()) {
            if (!expired(end - 1)) {
                fire(end);
                scheduleCleanup(end);
            }
        }
    }

    @Override
    public void onEventTime(long time, Timer timer) throws Exception {
        onTimer(time, timer);
    }

    @Override
    public void onProcessingTime(long time, Timer timer) throws Exception {
        onTimer(time, timer);
    }

    private void onTimer(long time, Timer timer) throws Exception {
        if (timer == Timer.FIRE) {
            fireChain(time + 1);
        } else {
            cleanup(time - lateness + 1);
        }
    }

    /** Fires the window ending at {@code end}, then every following window of the key that is already due, then schedules the next one. */
    private void fireChain(long end) throws Exception {
        while (true) {
            nextSlice.reset(end - layout.size() + layout.slide());
            fire(end);
            scheduleCleanup(end);
            if (!nextSlice.found) {
                // no slice of the fired window is in the next one: look further, through all the key's slices
                slices.forEach(nextSlice);
            }
            if (!nextSlice.found) {
                return;
            }
            long next = Math.max(layout.firstWindowEnd(nextSlice.start), end + layout.slide());
            if (next - 1 > firedUpTo()) {
                registerTimer(Timer.FIRE, next - 1);
                return;
            }
            deleteTimer(Timer.FIRE, next - 1);
            end = next;
        }
    }

    /**
     * Emits the window {@code [end - size, end)} from its slices; nothing if it has none. Tells {@link #nextSlice}
     * the slices it reads, so that a slice shared with the next window is found without a scan of the key's state.
     */
    private void fire(long end) throws Exception {
        windowSlices.clear();
        for (long s = end - layout.size(); s < end; s += layout.slice()) {
            Object acc = slices.read(namespaces.of(s));
            if (acc != null) {
                windowSlices.add(acc);
                nextSlice.offer(s);
            }
        }
        if (windowSlices.isEmpty()) {
            return;
        }
        int firing = 0;
        if (firings != null) {
            Long window = namespaces.of(end);
            Integer before = firings.get(window);
            firing = before == null ? 0 : before;
            firings.put(window, firing + 1);
        }
        emission.start(backend.currentKey(), new TimeWindow(end - layout.size(), end), firing, currentWatermark);
        contents.emit(windowSlices, emission);
        windowSlices.clear();
    }

    private void scheduleCleanup(long end) {
        long at = cleanupTime(end - 1);
        if (at <= firedUpTo()) {
            cleanup(end);
        } else {
            registerTimer(Timer.CLEANUP, at);
        }
    }

    /** Removes what only the window ending at {@code end} still needed: the slices it is the last window of, and its firing count. */
    private void cleanup(long end) {
        long from = end - layout.size();
        for (long s = from; s < from + layout.slide(); s += layout.slice()) {
            slices.remove(namespaces.of(s));
        }
        if (firings != null) {
            firings.remove(namespaces.of(end));
        }
    }

    private void registerTimer(Timer timer, long time) {
        if (eventTime) {
            timers.registerEventTimeTimer(timer, time);
        } else {
            timers.registerProcessingTimeTimer(timer, time);
        }
    }

    private void deleteTimer(Timer timer, long time) {
        if (eventTime) {
            timers.deleteEventTimeTimer(timer, time);
        } else {
            timers.deleteProcessingTimeTimer(timer, time);
        }
    }

    /** Finds the earliest slice of the current key at or after a start; reused to avoid a lambda per firing. */
    private static final class NextSlice implements BiConsumer<Long, Object> {
        long from;
        long start;
        boolean found;

        void reset(long from) {
            this.from = from;
            this.found = false;
        }

        @Override
        public void accept(Long slice, Object acc) {
            offer(slice);
        }

        /** A slice of the key with contents. */
        void offer(long s) {
            if (s >= from && (!found || s < start)) {
                start = s;
                found = true;
            }
        }
    }
}
