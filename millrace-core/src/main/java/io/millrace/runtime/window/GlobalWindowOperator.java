package io.millrace.runtime.window;

import io.millrace.api.window.GlobalWindow;
import io.millrace.api.window.Window;
import io.millrace.api.window.WindowSpec;
import io.millrace.runtime.state.NamespacedState;
import java.util.List;

/** One window per key that fires and purges only as its trigger says; never late, never cleaned up by time. */
final class GlobalWindowOperator extends TriggeredWindowOperator {
    private NamespacedState<Window, Object> contentsState;

    GlobalWindowOperator(WindowSpec spec) {
        super(spec);
    }

    @Override
    void openContents() {
        contentsState = backend.namespacedState("window-contents");
    }

    @Override
    void onRecord(Object value, long timestamp, long time) throws Exception {
        Object acc = contentsState.get(GlobalWindow.INSTANCE);
        Object updated = contents.add(acc, value);
        if (updated != acc) {
            contentsState.put(GlobalWindow.INSTANCE, updated);
        }
        onElement(value, time, GlobalWindow.INSTANCE);
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
    }
}
