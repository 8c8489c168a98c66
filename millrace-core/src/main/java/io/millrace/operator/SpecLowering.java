package io.millrace.operator;

import io.millrace.api.PipelineConfig;
import io.millrace.api.plan.LogicalPlan;
import io.millrace.api.plan.OperatorSpec;

/**
 * Turns a logical operator spec into a physical operator, one instance per subtask. Implementations
 * are found with {@link java.util.ServiceLoader} (file
 * {@code META-INF/services/io.millrace.operator.SpecLowering}), so modules such as windows, SQL
 * and CEP bring their own operators without the planner knowing them. The planner calls every lowering's
 * {@link #rewrite} once per job, in class-path order, before it lowers any spec; then
 * {@link #create(OperatorSpec, PipelineConfig)} on the first lowering that {@link #handles} a spec.
 */
public interface SpecLowering {
    boolean handles(OperatorSpec spec);

    /** A fresh operator for one subtask, for a job with the default configuration. */
    StreamOperator<?> create(OperatorSpec spec);

    /**
     * A fresh operator for one subtask of a job configured by {@code config}, for lowerings whose operator depends
     * on it (the state backend a window's layout is made for). The default ignores {@code config}.
     */
    default StreamOperator<?> create(OperatorSpec spec, PipelineConfig config) {
        return create(spec);
    }

    /**
     * Rewrites the logical plan before it is lowered (for example to insert pre-aggregation in front of the specs
     * this lowering handles). Must return {@code plan} itself when it changes nothing; the default does.
     */
    default LogicalPlan rewrite(LogicalPlan plan) {
        return plan;
    }
}
