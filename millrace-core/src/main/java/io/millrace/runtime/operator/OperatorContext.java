package io.millrace.runtime.operator;

import io.millrace.api.functions.KeySelector;
import io.millrace.api.time.Clock;
import io.millrace.runtime.metrics.OperatorMetricGroup;
import io.millrace.runtime.state.KeyedStateBackend;

/** What the runtime gives an operator subtask. */
public interface OperatorContext {
    String operatorName();

    int subtaskIndex();

    int parallelism();

    int maxParallelism();

    Clock clock();

    OperatorMetricGroup metrics();

    /** The keyed state backend of this subtask; null when the operator is not keyed. */
    KeyedStateBackend keyedStateBackend();

    /** The key selector of input 0 or 1 of a keyed operator; null when that input is not keyed. */
    KeySelector<Object, Object> keySelector(int input);

    /** Whether the job takes checkpoints. */
    default boolean checkpointingEnabled() {
        return false;
    }

    /** The checkpoint this run started from, or -1 for a fresh start. */
    default long restoredCheckpointId() {
        return -1;
    }

    /** The operator's parallelism in the restored checkpoint, or -1 for a fresh start or a new operator. */
    default int restoredParallelism() {
        return -1;
    }
}
