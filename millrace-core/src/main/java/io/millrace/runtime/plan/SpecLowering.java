package io.millrace.runtime.plan;

import io.millrace.api.plan.OperatorSpec;
import io.millrace.runtime.operator.StreamOperator;

/**
 * Turns a logical operator spec into a physical operator, one instance per subtask. Implementations
 * are found with {@link java.util.ServiceLoader} (file
 * {@code META-INF/services/io.millrace.runtime.plan.SpecLowering}), so modules such as windows, SQL
 * and CEP bring their own operators without the planner knowing them.
 */
public interface SpecLowering {
    boolean handles(OperatorSpec spec);

    /** A fresh operator for one subtask. */
    StreamOperator<?> create(OperatorSpec spec);
}
