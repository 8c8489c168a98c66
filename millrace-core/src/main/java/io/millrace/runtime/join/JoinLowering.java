package io.millrace.runtime.join;

import io.millrace.api.plan.IntervalJoinSpec;
import io.millrace.api.plan.OperatorSpec;
import io.millrace.operator.SpecLowering;
import io.millrace.operator.StreamOperator;

/**
 * Lowers {@link IntervalJoinSpec} to {@link IntervalJoinOperator}. Window joins need no lowering of their own:
 * the API builds them from a keyed window over both tagged inputs.
 */
public final class JoinLowering implements SpecLowering {
    @Override
    public boolean handles(OperatorSpec spec) {
        return spec instanceof IntervalJoinSpec<?, ?, ?>;
    }

    @Override
    public StreamOperator<?> create(OperatorSpec spec) {
        if (spec instanceof IntervalJoinSpec<?, ?, ?> interval) {
            return new IntervalJoinOperator<>(interval);
        }
        throw new IllegalArgumentException("JoinLowering cannot lower " + spec.getClass().getName());
    }
}
