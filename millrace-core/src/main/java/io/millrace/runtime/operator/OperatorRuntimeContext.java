package io.millrace.runtime.operator;

import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.state.KeyedStateStore;

/** The {@link RuntimeContext} a rich function sees, drawn from its operator's {@link OperatorContext}. */
public final class OperatorRuntimeContext implements RuntimeContext {
    private final OperatorContext context;

    public OperatorRuntimeContext(OperatorContext context) {
        this.context = context;
    }

    @Override
    public String operatorName() {
        return context.operatorName();
    }

    @Override
    public int subtaskIndex() {
        return context.subtaskIndex();
    }

    @Override
    public int parallelism() {
        return context.parallelism();
    }

    @Override
    public int maxParallelism() {
        return context.maxParallelism();
    }

    /** Throws IllegalStateException on an operator without keyed state. */
    @Override
    public KeyedStateStore state() {
        if (context.keyedStateBackend() == null) {
            throw new IllegalStateException("operator '" + context.operatorName()
                    + "' has no keyed state: keyed state needs a keyed stream (keyBy)");
        }
        return context.keyedStateBackend().stateStore();
    }
}
