package io.millrace.runtime.window;

import io.millrace.api.window.SessionWindows;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.Window;
import io.millrace.api.window.WindowSpec;
import io.millrace.runtime.state.NamespacedState;
import java.util.ArrayList;
import java.util.List;

/**
 * Session windows: a record at t makes the window [t, t + gap), which merges with every session of the key
 * it overlaps or touches. Merging folds the sessions' contents into the new window, lets the trigger merge
 * its state ({@code onMerge}), then clears the merged windows' triggers and cleanup timers. The sessions of
 * a key are kept sorted by start in one state entry.
 */
final class SessionWindowOperator extends TriggeredWindowOperator {
    /** Namespace of the key's session list. */
    private static final String SESSIONS = "sessions";

    private final long gap;
    private final List<TimeWindow> merging = new ArrayList<>();
    private NamespacedState<Window, Object> contentsState;
    private NamespacedState<String, ArrayList<TimeWindow>> sessions;

    SessionWindowOperator(WindowSpec spec) {
        super(spec);
        this.gap = ((SessionWindows) spec.assigner()).gap();
    }

    @Override
    void openContents() {
        contentsState = backend.namespacedState("window-contents");
        sessions = backend.namespacedState("window-sessions");
    }

    @Override
    void onRecord(Object value, long timestamp, long time) throws Exception {
        long end = time + gap;
        TimeWindow fresh = new TimeWindow(time, end < time ? Long.MAX_VALUE : end);
        ArrayList<TimeWindow> list = sessions.get(SESSIONS);
        TimeWindow result = fresh;
        merging.clear();
        if (list != null) {
            for (TimeWindow w : list) {
                if (w.intersects(fresh)) {
                    merging.add(w);
                    result = result.cover(w);
                }
            }
        }
        if (expired(result.maxTimestamp())) {
            late(value, timestamp);
            return;
        }
        TimeWindow target;
        if (merging.size() == 1 && merging.get(0).equals(result)) {
            target = result;
        } else {
            if (list == null) {
                list = new ArrayList<>(2);
                sessions.put(SESSIONS, list);
            }
            target = result;
            insertSorted(list, target);
            if (!merging.isEmpty()) {
                merge(list, target);
            }
        }
        Object acc = contentsState.get(target);
        Object updated = contents.add(acc, value);
        if (updated != acc) {
            contentsState.put(target, updated);
        }
        onElement(value, time, target);
    }

    /** Folds the sessions in {@link #merging} into {@code target}, which is already in {@code list}. */
    private void merge(ArrayList<TimeWindow> list, TimeWindow target) throws Exception {
        Object acc = null;
        int firing = 0;
        for (TimeWindow m : merging) {
            Object a = contentsState.get(m);
            if (a != null) {
                contentsState.remove(m);
                acc = acc == null ? a : contents.merge(acc, a);
            }
            Integer f = firings.get(m);
            if (f != null) {
                firings.remove(m);
                firing = Math.max(firing, f);
            }
            list.remove(m);
        }
        if (acc != null) {
            contentsState.put(target, acc);
        }
        if (firing > 0) {
            firings.put(target, firing);
        }
        triggerContext.window = target;
        triggerContext.merged = merging;
        try {
            trigger.onMerge(target, triggerContext);
        } finally {
            triggerContext.merged = List.of();
        }
        for (TimeWindow m : merging) {
            triggerContext.window = m;
            trigger.clear(m, triggerContext);
            deleteCleanupTimer(m);
        }
    }

    private static void insertSorted(ArrayList<TimeWindow> list, TimeWindow window) {
        int i = 0;
        while (i < list.size() && list.get(i).start() < window.start()) {
            i++;
        }
        list.add(i, window);
    }

    @Override
    boolean exists(Window window) {
        ArrayList<TimeWindow> list = sessions.get(SESSIONS);
        return list != null && list.contains(window);
    }

    @Override
    void collectContents(Window window, List<Object> out) {
        Object acc = contentsState.get(window);
        if (acc != null) {
            out.add(acc);
        }
    }

    @Override
    void purgeContents(Window window) {
        contentsState.remove(window);
    }

    @Override
    void removeWindow(Window window) {
        contentsState.remove(window);
        ArrayList<TimeWindow> list = sessions.get(SESSIONS);
        if (list != null) {
            list.remove(window);
            if (list.isEmpty()) {
                sessions.remove(SESSIONS);
            }
        }
    }
}
