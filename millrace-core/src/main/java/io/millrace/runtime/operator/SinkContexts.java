package io.millrace.runtime.operator;

import io.millrace.api.sink.SinkContext;
import io.millrace.api.time.Clock;
import io.millrace.operator.OperatorContext;

/** The sink context a sink subtask sees, from its operator context. */
final class SinkContexts {
    private SinkContexts() {}

    /** For {@code subtask}, which is the operator's own subtask except when cleaning up after a rescale. */
    static SinkContext of(OperatorContext ctx, int subtask) {
        return new SinkContext() {
            @Override
            public int subtaskIndex() {
                return subtask;
            }

            @Override
            public int parallelism() {
                return ctx.parallelism();
            }

            @Override
            public Clock clock() {
                return ctx.clock();
            }

            @Override
            public String sinkName() {
                return ctx.operatorName();
            }
        };
    }
}
