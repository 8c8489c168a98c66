package io.millrace.runtime.window;

import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.WindowSpec;
import io.millrace.runtime.state.InternalTimerService;
import io.millrace.runtime.state.NamespacedState;
import io.millrace.runtime.state.Triggerable;
import java.util.ArrayList;

/**
 * Tumbling and sliding time windows with the default trigger, computed from shared slices of
 * {@code gcd(size, slide)} ms, on a keyed state backend other than the heap (RocksDB). A key's live slices are
 * one value ({@link KeySlices}, state {@value #STATE_NAME}): per record one state lookup, plus one timer
 * registration when the record opens a new slice; per window firing one lookup, whatever the number of slices
 * in a window. A window fires by one timer per (key, window end); after firing, the timer of the next window of
 * the key that has contents is registered (a chain), so records do not register a timer per window. With
 * allowed lateness a late record fires the windows it updates again (firing index 1, 2, ...); a window's last
 * slices and firing count are removed at its cleanup time. Task thread only.
 */
final class SlicingWindowOperator extends WindowOperatorBase implements Triggerable<SlicingWindowOperator.Timer> {
    /** The per-key value state of the slices. */
    static final String STATE_NAME = "window-slices";
    /** The namespaced state of firings per window end (with allowed lateness only). */
    static final String FIRINGS_NAME = "window-firings";
    /** The timer service of firings and cleanups. */
    static final String TIMERS_NAME = "window-timers";

    /** Timer namespaces; the timer's time identifies the window: {@code end - 1} or its cleanup time. */
    enum Timer {
        FIRE,
        CLEANUP
    }

    private final SliceLayout layout;
    private final SliceNamespaces namespaces;
    private final ArrayList<Object> windowSlices = new ArrayList<>();
    private ValueState<KeySlices> slices;
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
        slices = backend.stateStore().getState(new ValueStateDescriptor<>(STATE_NAME));
        firings = lateness > 0 ? backend.namespacedState(FIRINGS_NAME) : null;
        timers = backend.timerService(TIMERS_NAME, this);
    }

    @Override
    void onRecord(Object value, long timestamp, long time) throws Exception {
        long slice = layout.sliceStart(time);
        long lastEnd = layout.lastWindowEnd(slice);
        if (expired(lastEnd - 1)) {
            late(value, timestamp);
            return;
        }
        KeySlices key = slices.value();
        if (key == null) {
            key = new KeySlices();
        }
        int i = key.indexOf(slice);
        boolean opened = i < 0;
        if (opened) {
            key.insert(-i - 1, slice, contents.add(null, value));
        } else {
            key.set(i, contents.add(key.accumulator(i), value));
        }
        slices.update(key);
        long firstEnd = layout.firstWindowEnd(slice);
        long done = firedUpTo();
        if (firstEnd - 1 <= done) {
            refireLateWindows(key, firstEnd, lastEnd, done);
        }
        if (opened) {
            long due = firstEnd - 1 > done ? firstEnd : firstEnd + (done + 1 - firstEnd) / layout.slide() * layout.slide() + layout.slide();
            if (due <= lastEnd) {
                registerTimer(Timer.FIRE, due - 1);
            }
        }
    }

    /** The windows of a late record that already fired but are within the allowed lateness fire again. */
    private void refireLateWindows(KeySlices key, long firstEnd, long lastEnd, long done) throws Exception {
        for (long end = firstEnd; end <= lastEnd && end - 1 <= done; end += layout.slide()) {
            if (!expired(end - 1)) {
                fire(end, key);
                key = scheduleCleanup(end, key);
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
            cleanup(time - lateness + 1, slices.value());
        }
    }

    /** Fires the window ending at {@code end}, then every following window of the key that is already due, then schedules the next one. */
    private void fireChain(long end) throws Exception {
        KeySlices key = slices.value();
        while (true) {
            fire(end, key);
            key = scheduleCleanup(end, key);
            if (key == null) {
                return;
            }
            int i = key.firstAtOrAfter(end - layout.size() + layout.slide());
            if (i == key.size()) {
                return;
            }
            long next = Math.max(layout.firstWindowEnd(key.start(i)), end + layout.slide());
            if (next - 1 > firedUpTo()) {
                registerTimer(Timer.FIRE, next - 1);
                return;
            }
            deleteTimer(Timer.FIRE, next - 1);
            end = next;
        }
    }

    /** Emits the window {@code [end - size, end)} from the key's slices ({@code key}, may be null); nothing if it has none. */
    private void fire(long end, KeySlices key) throws Exception {
        if (key == null) {
            return;
        }
        windowSlices.clear();
        for (int i = key.firstAtOrAfter(end - layout.size()); i < key.size() && key.start(i) < end; i++) {
            windowSlices.add(key.accumulator(i));
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

    /** Cleans up after window {@code end} now if its time has come, else registers the cleanup timer; returns the key's slices after that. */
    private KeySlices scheduleCleanup(long end, KeySlices key) {
        long at = cleanupTime(end - 1);
        if (at <= firedUpTo()) {
            return cleanup(end, key);
        }
        registerTimer(Timer.CLEANUP, at);
        return key;
    }

    /**
     * Removes what only the window ending at {@code end} still needed: the slices it is the last window of, and its
     * firing count. {@code key}: the current key's slices as read from the state (may be null); returns them after
     * the removal, null when none are left.
     */
    private KeySlices cleanup(long end, KeySlices key) {
        long from = end - layout.size();
        if (key != null && key.removeRange(from, from + layout.slide())) {
            if (key.size() == 0) {
                slices.clear();
                key = null;
            } else {
                slices.update(key);
            }
        }
        if (firings != null) {
            firings.remove(namespaces.of(end));
        }
        return key;
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
}
