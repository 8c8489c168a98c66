package io.millrace.runtime.plan;

import io.millrace.api.plan.LogicalNode;
import io.millrace.operator.StreamOperator;

/** Creates the physical operator of a logical node, a fresh one per subtask. */
@FunctionalInterface
public interface OperatorFactory {
    /** The operator of subtask {@code subtask} of the node's {@code parallelism} subtasks. */
    StreamOperator<?> create(LogicalNode node, int subtask, int parallelism);
}
