package io.millrace.runtime.window;

import io.millrace.api.PipelineConfig;
import io.millrace.api.plan.LogicalPlan;
import io.millrace.api.plan.OperatorSpec;
import io.millrace.api.window.CountWindows;
import io.millrace.api.window.GlobalWindows;
import io.millrace.api.window.SessionWindows;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.WindowSpec;
import io.millrace.operator.SpecLowering;
import io.millrace.operator.StreamOperator;
import io.millrace.runtime.state.heap.HeapStateBackendProvider;

/**
 * Lowers a {@link WindowSpec} to its operator: time windows with their default trigger to the slicing fast
 * path in the layout of the configured state backend (slice-major tables on the heap backend, a key's slices in
 * one value elsewhere; see {@link TimeWindowOperator}), with any other trigger to the triggered slicing operator;
 * sessions, global and count windows to
 * their own operators. With local aggregation ({@link LocalWindowAggregation}) also the pre-aggregating
 * {@link LocalWindowAggregator} and the time window that merges its partials.
 */
public final class WindowLowering implements SpecLowering {
    @Override
    public boolean handles(OperatorSpec spec) {
        return spec instanceof WindowSpec || spec instanceof PartialWindowSpec || spec instanceof LocalWindowAggregateSpec;
    }

    /** The operator for a job on the default (heap) state backend. */
    @Override
    public StreamOperator<?> create(OperatorSpec spec) {
        return create(spec, new PipelineConfig());
    }

    /** The operator for a job on the state backend {@code config} names. */
    @Override
    public StreamOperator<?> create(OperatorSpec spec, PipelineConfig config) {
        boolean sliceTables = HeapStateBackendProvider.NAME.equals(config.stateBackend());
        if (spec instanceof LocalWindowAggregateSpec local) {
            return new LocalWindowAggregator(local);
        }
        if (spec instanceof PartialWindowSpec partial) {
            return new TimeWindowOperator(partial.window(), true, sliceTables);
        }
        WindowSpec w = (WindowSpec) spec;
        if (w.assigner() instanceof TimeWindows) {
            return w.usesDefaultTrigger() ? new TimeWindowOperator(w, false, sliceTables) : new TriggeredSlicingOperator(w);
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
