package io.millrace.runtime.window;

import io.millrace.api.window.CountWindows;
import io.millrace.api.window.GlobalWindow;
import io.millrace.api.window.WindowSpec;
import io.millrace.runtime.state.NamespacedState;
import java.util.ArrayList;

/**
 * Count windows from slices of {@code gcd(size, slide)} records: each key keeps its record count and a ring
 * of the slice accumulators covering the last {@code size} records. Every {@code slide} records the window
 * over the last {@code min(count, size)} records fires; the firing index is the number of earlier firings
 * of the key. One state lookup per record; no timers.
 */
final class CountWindowOperator extends WindowOperatorBase {
    private static final String RING = "ring";

    private final long size;
    private final long slide;
    private final long slice;
    private final ArrayList<Object> windowSlices = new ArrayList<>();
    private NamespacedState<String, Ring> rings;

    CountWindowOperator(WindowSpec spec) {
        super(spec);
        CountWindows windows = (CountWindows) spec.assigner();
        this.size = windows.size();
        this.slide = windows.slide();
        this.slice = SliceLayout.gcd(size, slide);
    }

    @Override
    void openState() {
        rings = backend.namespacedState("window-count-slices");
    }

    @Override
    void onRecord(Object value, long timestamp, long time) throws Exception {
        Ring ring = rings.get(RING);
        if (ring == null) {
            ring = new Ring((int) (size / slice));
            rings.put(RING, ring);
        }
        int current = (int) ((ring.count / slice) % ring.slices.length);
        if (ring.count % slice == 0) {
            ring.slices[current] = null;
        }
        ring.slices[current] = contents.add(ring.slices[current], value);
        ring.count++;
        if (ring.count % slide == 0) {
            fire(ring, current);
        }
    }

    private void fire(Ring ring, int newest) throws Exception {
        int n = (int) (Math.min(ring.count, size) / slice);
        windowSlices.clear();
        for (int i = n - 1; i >= 0; i--) {
            windowSlices.add(ring.slices[Math.floorMod(newest - i, ring.slices.length)]);
        }
        int firing = (int) (ring.count / slide - 1);
        emission.start(backend.currentKey(), GlobalWindow.INSTANCE, firing, currentWatermark);
        contents.emit(windowSlices, emission);
        windowSlices.clear();
    }

    /** The count and slice accumulators of one key; mutated in place (state values are held by reference). */
    static final class Ring implements java.io.Serializable {
        long count;
        final Object[] slices;

        Ring(int slices) {
            this.slices = new Object[slices];
        }
    }
}
