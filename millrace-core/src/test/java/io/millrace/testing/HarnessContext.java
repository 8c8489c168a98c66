package io.millrace.testing;

import io.millrace.api.functions.KeySelector;
import io.millrace.api.time.Clock;
import io.millrace.operator.OperatorMetricGroup;
import io.millrace.runtime.operator.InternalOperatorContext;
import io.millrace.runtime.state.KeyedStateBackend;

/** The {@link InternalOperatorContext} a harness gives its operator. */
record HarnessContext(
        String operatorName,
        int subtaskIndex,
        int parallelism,
        int maxParallelism,
        Clock clock,
        OperatorMetricGroup metrics,
        KeyedStateBackend keyedStateBackend,
        KeySelector<Object, Object> selector1,
        KeySelector<Object, Object> selector2,
        long restoredCheckpointId,
        int restoredParallelism)
        implements InternalOperatorContext {

    @Override
    public KeySelector<Object, Object> keySelector(int input) {
        return switch (input) {
            case 0 -> selector1;
            case 1 -> selector2;
            default -> throw new IllegalArgumentException("input " + input + " (inputs are 0 and 1)");
        };
    }
}
