package io.millrace.runtime.window;

import io.millrace.api.state.ReducingState;
import io.millrace.api.state.ReducingStateDescriptor;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.window.Trigger;
import io.millrace.api.window.Window;
import io.millrace.runtime.state.InternalTimerService;
import io.millrace.runtime.state.KeyedStateBackend;
import io.millrace.runtime.state.NamespacedState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link Trigger.Context} of one operator: points at the current window (set by the operator before
 * each trigger call) and keeps trigger state in the keyed backend, namespaced by window. State views are
 * created once per descriptor name and always address the current key and window. Task thread only.
 */
final class WindowTriggerContext implements Trigger.OnMergeContext {
    private final TriggeredWindowOperator operator;
    private final KeyedStateBackend backend;
    private final InternalTimerService<Window> timers;
    private final Map<String, Object> views = new HashMap<>();
    Window window;
    /** The windows merged into {@link #window}, during {@code onMerge} only. */
    List<? extends Window> merged = List.of();

    WindowTriggerContext(TriggeredWindowOperator operator, KeyedStateBackend backend, InternalTimerService<Window> timers) {
        this.operator = operator;
        this.backend = backend;
        this.timers = timers;
    }

    @Override
    public long currentWatermark() {
        return operator.currentWatermark();
    }

    @Override
    public long currentProcessingTime() {
        return operator.currentProcessingTime();
    }

    @Override
    public void registerEventTimeTimer(long time) {
        timers.registerEventTimeTimer(window, time);
    }

    @Override
    public void deleteEventTimeTimer(long time) {
        timers.deleteEventTimeTimer(window, time);
    }

    @Override
    public void registerProcessingTimeTimer(long time) {
        timers.registerProcessingTimeTimer(window, time);
    }

    @Override
    public void deleteProcessingTimeTimer(long time) {
        timers.deleteProcessingTimeTimer(window, time);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <S> ValueState<S> getState(ValueStateDescriptor<S> descriptor) {
        return (ValueState<S>) views.computeIfAbsent(descriptor.name(), n -> new Value<>(backend.namespacedState("trigger-" + n)));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <S> ReducingState<S> getReducingState(ReducingStateDescriptor<S> descriptor) {
        return (ReducingState<S>) views.computeIfAbsent(descriptor.name(), n -> new Reducing<>(backend.<Window, S>namespacedState("trigger-" + n), descriptor));
    }

    @Override
    public <S> void mergeReducingState(ReducingStateDescriptor<S> descriptor) throws Exception {
        Reducing<S> view = (Reducing<S>) getReducingState(descriptor);
        for (Window m : merged) {
            S value = view.state.get(m);
            if (value != null) {
                view.state.remove(m);
                S current = view.state.get(window);
                view.state.put(window, current == null ? value : descriptor.reducer().reduce(current, value));
            }
        }
    }

    private final class Value<S> implements ValueState<S> {
        private final NamespacedState<Window, S> state;

        Value(NamespacedState<Window, S> state) {
            this.state = state;
        }

        @Override
        public S value() {
            return state.get(window);
        }

        @Override
        public void update(S value) {
            if (value == null) {
                state.remove(window);
            } else {
                state.put(window, value);
            }
        }

        @Override
        public void clear() {
            state.remove(window);
        }
    }

    private final class Reducing<S> implements ReducingState<S> {
        private final NamespacedState<Window, S> state;
        private final ReducingStateDescriptor<S> descriptor;

        Reducing(NamespacedState<Window, S> state, ReducingStateDescriptor<S> descriptor) {
            this.state = state;
            this.descriptor = descriptor;
        }

        @Override
        public S get() {
            return state.get(window);
        }

        @Override
        public void add(S value) {
            S current = state.get(window);
            try {
                state.put(window, current == null ? value : descriptor.reducer().reduce(current, value));
            } catch (Exception e) {
                throw new IllegalStateException("reduce function of trigger " + descriptor + " failed", e);
            }
        }

        @Override
        public void clear() {
            state.remove(window);
        }
    }
}
