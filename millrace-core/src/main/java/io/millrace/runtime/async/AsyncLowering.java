package io.millrace.runtime.async;

import io.millrace.api.async.AsyncSpec;
import io.millrace.api.plan.OperatorSpec;
import io.millrace.runtime.operator.SpecLowering;
import io.millrace.runtime.operator.StreamOperator;

/** Lowers {@link AsyncSpec} to {@link AsyncWaitOperator}. */
public final class AsyncLowering implements SpecLowering {
    @Override
    public boolean handles(OperatorSpec spec) {
        return spec instanceof AsyncSpec;
    }

    @Override
    public StreamOperator<?> create(OperatorSpec spec) {
        return new AsyncWaitOperator<>((AsyncSpec<?, ?>) spec);
    }
}
