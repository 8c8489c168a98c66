package io.millrace.runtime.operator;

import io.millrace.api.state.KeyedStateStore;
import io.millrace.api.time.TimerService;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.TimerCallback;
import io.millrace.runtime.state.KeyedStateBackend;

/**
 * The operator context as the runtime implements it: the SPI's {@link OperatorContext} plus the subtask's keyed
 * state backend, for built-in operators that need namespaced state or timers (windows). The keyed methods of the
 * SPI are answered by the backend. Operators outside the runtime see only {@link OperatorContext}.
 */
public interface InternalOperatorContext extends OperatorContext {
    /** The keyed state backend of this subtask; null when the operator is not keyed. */
    KeyedStateBackend keyedStateBackend();

    /** The backend behind {@code context}, null when the operator is not keyed; fails for a context of another runtime. */
    static KeyedStateBackend backendOf(OperatorContext context) {
        if (context instanceof InternalOperatorContext internal) {
            return internal.keyedStateBackend();
        }
        throw new IllegalStateException("operator '" + context.operatorName() + "' is a built-in operator and needs the runtime's own context, not a "
                + context.getClass().getName());
    }

    @Override
    default boolean keyed() {
        return keyedStateBackend() != null;
    }

    @Override
    default KeyedStateStore state() {
        return backend().stateStore();
    }

    @Override
    default Object currentKey() {
        return backend().currentKey();
    }

    @Override
    default void setCurrentKey(Object key) {
        backend().setCurrentKey(key);
    }

    @Override
    default void setCurrentKey(Object key, int keyGroup) {
        backend().setCurrentKey(key, keyGroup);
    }

    @Override
    default TimerService timerService(String name, TimerCallback callback) {
        return new VoidTimerService(backend().timerService(name, new CallbackTrigger<>(callback)));
    }

    @Override
    default void fireEventTimeTimers(long watermark) throws Exception {
        backend().advanceWatermark(watermark);
    }

    @Override
    default void fireProcessingTimeTimers(long now) throws Exception {
        backend().advanceProcessingTime(now);
    }

    @Override
    default long nextEventTimeTimer() {
        return backend().nextEventTimerTime();
    }

    /** The backend, or an exception naming the operator when it is not keyed. */
    private KeyedStateBackend backend() {
        KeyedStateBackend backend = keyedStateBackend();
        if (backend == null) {
            throw new IllegalStateException("operator '" + operatorName() + "' is not keyed: keyed state and timers need keyBy() before it");
        }
        return backend;
    }
}
