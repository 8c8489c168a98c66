package io.millrace.runtime.window;

import io.millrace.api.plan.LogicalPlan;
import io.millrace.api.plan.OperatorSpec;
import io.millrace.api.window.CountWindows;
import io.millrace.api.window.GlobalWindows;
import io.millrace.api.window.SessionWindows;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.WindowSpec;
import io.millrace.runtime.operator.SpecLowering;
import io.millrace.runtime.operator.StreamOperator;

/**
 * Lowers a {@link WindowSpec} to its operator: time windows with their default trigger to the slicing fast
 * path (slice-major tables on the heap backend, see {@link TimeWindowOperator}), with any other trigger to the triggered slicing operator; sessions, global and count windows to
 * their own operators. With local aggregation ({@link LocalWindowAggregation}) also the pre-aggregating
 * {@link LocalWindowAggregator} and the time window that merges its partials.
 */
public final class WindowLowering implements SpecLowering {
    @Override
    public boolean handles(OperatorSpec spec) {
        return spec instanceof WindowSpec || spec instanceof PartialWindowSpec || spec instanceof LocalWindowAggregateSpec;
    }

    @Override
    public StreamOperator<?> create(OperatorSpec spec) {
        if (spec instanceof LocalWindowAggregateSpec local) {
            return new LocalWindowAggregator(local);
        }
        if (spec instanceof PartialWindowSpec partial) {
            return new TimeWindowOperator(partial.window(), true);
        }
        WindowSpec w = (WindowSpec) spec;
        if (w.assigner() instanceof TimeWindows) {
            return w.usesDefaultTrigger() ? new TimeWindowOperator(w) : new TriggeredSlicingOperator(w);
        }
        if (w.assigner() instanceof SessionWindows) {
            return new SessionWindowOperator(w);
        }
        if (w.assigner() instanceof GlobalWindows) {
            return new GlobalWindowOperator(w);
        }
        if (w.assigner() instanceof CountWindows) {
            return new CountWindowOperator(w);
        }
        throw new IllegalArgumentException("unknown window assigner " + w.assigner());
    }

    /** Local (two-phase) window aggregation, where the plan's windows allow it: {@link LocalWindowAggregation}. */
    @Override
    public LogicalPlan rewrite(LogicalPlan plan) {
        return LocalWindowAggregation.rewrite(plan);
    }
}
