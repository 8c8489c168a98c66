package io.millrace.runtime.window;

import io.millrace.runtime.state.heap.GroupedState.LogicalForm;
import io.millrace.runtime.state.heap.GroupedState.LogicalGroup;
import io.millrace.runtime.state.heap.GroupedState.LogicalTimer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The canonical savepoint form of time-window state, the one both layouts restore from: the state of
 * {@link SlicingWindowOperator} as it keeps it in ordinary keyed state.
 *
 * <ul>
 *   <li>{@value SlicingWindowOperator#STATE_NAME} (value state): per key its live slices, a {@link KeySlices};
 *   <li>{@value SlicingWindowOperator#FIRINGS_NAME} (namespaced state, only with allowed lateness): per key and window
 *       end, the window's firings so far, for windows that fired and are not cleaned up yet;
 *   <li>{@value SlicingWindowOperator#TIMERS_NAME} (timers, namespace a {@link SlicingWindowOperator.Timer}): per key a
 *       {@code FIRE} timer at the end minus 1 of its first window with contents that has not fired, and a
 *       {@code CLEANUP} timer at the cleanup time of each window that fired and is within the allowed lateness.
 * </ul>
 *
 * {@link SliceTableWindowOperator}'s tables become this form per key group ({@link #write}); back from it
 * ({@link #restore}), the time up to which a key group's windows fired is the latest end minus 1 of the windows
 * the timers show to have fired, so that no window fires twice and none is missed. Task thread only.
 */
final class SliceStoreForm {
    private SliceStoreForm() {}

    /** The states and timer service of the form for windows with this timing. */
    static LogicalForm of(SliceTiming timing) {
        LinkedHashMap<String, String> states = new LinkedHashMap<>();
        states.put(SlicingWindowOperator.STATE_NAME, "value");
        if (timing.lateness() > 0) {
            states.put(SlicingWindowOperator.FIRINGS_NAME, "namespaced");
        }
        return new LogicalForm(states, List.of(SlicingWindowOperator.TIMERS_NAME));
    }

    /**
     * One key group of a slice-table capture in the form: {@code slices} and {@code windows} are the group's tables
     * by slice start and by window end, {@code done} the time up to which its windows fired; {@code packing} (null
     * when values are objects) unpacks accumulators into new instances.
     */
    static LogicalGroup write(SliceTiming timing, long[] sliceIds, SliceTable[] slices, long[] windowIds, SliceTable[] windows,
            long done, Packing packing) {
        SliceLayout layout = timing.layout();
        Map<Object, Object> byKey = new LinkedHashMap<>();
        for (int i = 0; slices != null && i < slices.length; i++) {
            SliceTable t = slices[i];
            for (int p = 0; t != null && p < t.size(); p++) {
                KeySlices key = (KeySlices) byKey.computeIfAbsent(t.key(p), k -> new KeySlices());
                int at = key.indexOf(sliceIds[i]);
                if (at < 0) {
                    key.insert(-at - 1, sliceIds[i], packing == null ? t.value(p) : t.valueInto(p, packing.newInstance()));
                }
            }
        }
        Map<Object, Object> firings = new LinkedHashMap<>();
        for (int i = 0; windows != null && i < windows.length; i++) {
            SliceTable t = windows[i];
            for (int p = 0; t != null && p < t.size(); p++) {
                @SuppressWarnings("unchecked")
                Map<Object, Object> counts = (Map<Object, Object>) firings.computeIfAbsent(t.key(p), k -> new LinkedHashMap<>());
                counts.put(windowIds[i], t.value(p));
            }
        }
        List<LogicalTimer> timers = new ArrayList<>();
        for (Map.Entry<Object, Object> e : byKey.entrySet()) {
            KeySlices key = (KeySlices) e.getValue();
            long fire = Long.MAX_VALUE;
            TreeSet<Long> firedEnds = new TreeSet<>();
            for (int i = 0; i < key.size(); i++) {
                long due = timing.firstUnfiredEnd(key.start(i), done);
                if (due != Long.MIN_VALUE) {
                    fire = Math.min(fire, due);
                }
                for (long end = layout.firstWindowEnd(key.start(i)); end <= layout.lastWindowEnd(key.start(i)); end += layout.slide()) {
                    if (end - 1 <= done && timing.cleanupTime(end - 1) > done) {
                        firedEnds.add(end);
                    }
                }
            }
            if (fire != Long.MAX_VALUE) {
                timers.add(new LogicalTimer(e.getKey(), SlicingWindowOperator.Timer.FIRE, fire - 1, timing.eventTime()));
            }
            for (long end : firedEnds) {
                timers.add(new LogicalTimer(e.getKey(), SlicingWindowOperator.Timer.CLEANUP, timing.cleanupTime(end - 1),
                        timing.eventTime()));
                if (timing.lateness() > 0) {
                    @SuppressWarnings("unchecked")
                    Map<Object, Object> counts = (Map<Object, Object>) firings.computeIfAbsent(e.getKey(), k -> new LinkedHashMap<>());
                    counts.putIfAbsent(end, 1); // fired once, on time: the tables count re-firings only
                }
            }
        }
        Map<String, Map<Object, Object>> states = new HashMap<>();
        states.put(SlicingWindowOperator.STATE_NAME, byKey);
        if (timing.lateness() > 0) {
            states.put(SlicingWindowOperator.FIRINGS_NAME, firings);
        }
        return new LogicalGroup(states, Map.of(SlicingWindowOperator.TIMERS_NAME, timers));
    }

    /**
     * Puts one key group of the form into {@code store} (group index {@code group}); returns the time up to which
     * the group's windows fired, {@code Long.MIN_VALUE} when the form shows no fired window. Fails with an
     * IllegalStateException naming {@code context}, what was expected and what was found when a value is not what the
     * form holds.
     */
    static long restore(SliceTiming timing, LogicalGroup in, SliceStore store, int group, String context) {
        SliceLayout layout = timing.layout();
        Map<Object, Long> fireAt = new HashMap<>();
        long done = Long.MIN_VALUE;
        for (LogicalTimer t : in.timers().getOrDefault(SlicingWindowOperator.TIMERS_NAME, List.of())) {
            if (t.namespace() == SlicingWindowOperator.Timer.FIRE) {
                fireAt.merge(t.key(), t.timestamp(), Math::min);
            } else if (t.namespace() == SlicingWindowOperator.Timer.CLEANUP) {
                done = Math.max(done, t.timestamp() - timing.lateness());
            } else {
                throw new IllegalStateException(context + ": expected timers of namespace FIRE or CLEANUP in timer service '"
                        + SlicingWindowOperator.TIMERS_NAME + "', found " + describe(t.namespace()));
            }
        }
        for (Map.Entry<Object, Object> e : in.states().getOrDefault(SlicingWindowOperator.STATE_NAME, Map.of()).entrySet()) {
            if (!(e.getValue() instanceof KeySlices key)) {
                throw new IllegalStateException(context + ": expected the slices of a key (" + KeySlices.class.getSimpleName()
                        + ") in state '" + SlicingWindowOperator.STATE_NAME + "', found " + describe(e.getValue()));
            }
            Long fire = fireAt.get(e.getKey());
            for (int i = 0; i < key.size(); i++) {
                put(store.slices.table(key.start(i), group), e.getKey(), key.accumulator(i));
                for (long end = layout.firstWindowEnd(key.start(i)); end <= layout.lastWindowEnd(key.start(i)); end += layout.slide()) {
                    if (fire == null || end - 1 < fire) {
                        done = Math.max(done, end - 1); // before the key's next firing: fired already
                    }
                }
            }
        }
        for (Map.Entry<Object, Object> e : in.states().getOrDefault(SlicingWindowOperator.FIRINGS_NAME, Map.of()).entrySet()) {
            for (Map.Entry<?, ?> window : ((Map<?, ?>) e.getValue()).entrySet()) {
                if (!(window.getKey() instanceof Long end) || !(window.getValue() instanceof Integer)) {
                    throw new IllegalStateException(context + ": expected window ends and firing counts in state '"
                            + SlicingWindowOperator.FIRINGS_NAME + "', found " + describe(window.getKey()) + " and "
                            + describe(window.getValue()));
                }
                put(store.firings.table(end, group), e.getKey(), window.getValue());
            }
        }
        return done;
    }

    private static void put(SliceTable table, Object key, Object value) {
        int p = table.find(key, key.hashCode());
        if (p < 0) {
            table.add(key, key.hashCode(), value);
        } else {
            table.setValue(p, value);
        }
    }

    private static String describe(Object value) {
        return value == null ? "null" : "a " + value.getClass().getName();
    }
}
