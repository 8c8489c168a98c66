package io.millrace.testing;

import io.millrace.api.functions.KeySelector;
import io.millrace.api.time.Clock;
import io.millrace.operator.OperatorMetricGroup;
import io.millrace.runtime.operator.InternalOperatorContext;
import io.millrace.runtime.state.KeyedStateBackend;

/** A minimal non-keyed {@link InternalOperatorContext} with a name and subtask, for tests of messages and helpers. */
public record NamedContext(String operatorName, int subtaskIndex) implements InternalOperatorContext {
    @Override
    public int parallelism() {
        return subtaskIndex + 1;
    }

    @Override
    public int maxParallelism() {
        return 128;
    }

    @Override
    public Clock clock() {
        return new io.millrace.api.time.ManualClock(0);
    }

    @Override
    public OperatorMetricGroup metrics() {
        return new OperatorMetricGroup(operatorName, subtaskIndex);
    }

    @Override
    public KeyedStateBackend keyedStateBackend() {
        return null;
    }

    @Override
    public KeySelector<Object, Object> keySelector(int input) {
        return null;
    }
}
