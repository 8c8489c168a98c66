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
}
