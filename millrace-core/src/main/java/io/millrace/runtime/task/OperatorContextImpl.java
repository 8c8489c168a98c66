package io.millrace.runtime.task;

import io.millrace.api.functions.KeySelector;
import io.millrace.api.time.Clock;
import io.millrace.runtime.metrics.OperatorMetricGroup;
import io.millrace.runtime.operator.OperatorContext;
import io.millrace.runtime.state.KeyedStateBackend;
import java.util.function.BooleanSupplier;

/** The operator context the local runtime gives each operator subtask. */
record OperatorContextImpl(
        String operatorName,
        int subtaskIndex,
        int parallelism,
        int maxParallelism,
        Clock clock,
        OperatorMetricGroup metrics,
        KeyedStateBackend keyedStateBackend,
        KeySelector<Object, Object> key0,
        KeySelector<Object, Object> key1,
        boolean checkpointingEnabled,
        long restoredCheckpointId,
        int restoredParallelism,
        OperatorMailbox mailbox)
        implements OperatorContext {

    @Override
    public KeySelector<Object, Object> keySelector(int input) {
        return input == 0 ? key0 : key1;
    }

    @Override
    public void runMailsUntil(BooleanSupplier condition) throws Exception {
        mailbox.runUntil(condition);
    }
}
