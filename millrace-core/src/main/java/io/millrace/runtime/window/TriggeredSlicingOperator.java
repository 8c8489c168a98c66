package io.millrace.runtime.window;

import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.Window;
import io.millrace.api.window.WindowSpec;
import io.millrace.runtime.state.NamespacedState;
import java.util.List;

/**
 * Tumbling and sliding time windows with a user-set trigger. Contents live in shared slices as in
 * {@link SlicingWindowOperator} (one state lookup per record); the trigger runs once per window the record
 * belongs to, so it can keep per-window state. A trigger must not purge a sliding window, whose slices
 * its neighbours share.
 */
final class TriggeredSlicingOperator extends TriggeredWindowOperator {
    private final SliceLayout layout;
    private final SliceNamespaces namespaces;
    private NamespacedState<Long, Object> slices;

    TriggeredSlicingOperator(WindowSpec spec) {
        super(spec);
        this.layout = SliceLayout.of((TimeWindows) spec.assigner());
        this.namespaces = new SliceNamespaces(layout.slice());
    }

    @Override
    void openContents() {
        slices = backend.namespacedState("window-slices");
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
        for (long end = layout.firstWindowEnd(slice); end <= lastEnd; end += layout.slide()) {
            if (!expired(end - 1)) {
                onElement(value, time, new TimeWindow(end - layout.size(), end));
            }
        }
    }

    @Override
    void collectContents(Window window, List<Object> out) {
        TimeWindow w = (TimeWindow) window;
        for (long s = w.start(); s < w.end(); s += layout.slice()) {
            Object acc = slices.get(namespaces.of(s));
            if (acc != null) {
                out.add(acc);
            }
        }
    }

    @Override
    void purgeContents(Window window) {
        if (!layout.isTumbling()) {
            throw new IllegalStateException("trigger " + trigger + " purged sliding window " + window + " of operator '"
                    + context.operatorName() + "': sliding windows share slices and cannot be purged");
        }
        TimeWindow w = (TimeWindow) window;
        for (long s = w.start(); s < w.end(); s += layout.slice()) {
            slices.remove(namespaces.of(s));
        }
    }

    @Override
    void removeWindow(Window window) {
        long from = ((TimeWindow) window).start();
        for (long s = from; s < from + layout.slide(); s += layout.slice()) {
            slices.remove(namespaces.of(s));
        }
    }
}
