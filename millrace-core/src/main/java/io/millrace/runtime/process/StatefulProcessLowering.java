package io.millrace.runtime.process;

import io.millrace.api.plan.OperatorSpec;
import io.millrace.api.plan.Specs;
import io.millrace.operator.SpecLowering;
import io.millrace.operator.StreamOperator;

/**
 * Lowers {@link Specs.KeyedProcessSpec} to {@link KeyedProcessOperator} and {@link Specs.CoProcessSpec}
 * to {@link CoProcessOperator}.
 */
public final class StatefulProcessLowering implements SpecLowering {
    @Override
    public boolean handles(OperatorSpec spec) {
        return spec instanceof Specs.KeyedProcessSpec<?, ?, ?> || spec instanceof Specs.CoProcessSpec<?, ?, ?>;
    }

    @Override
    public StreamOperator<?> create(OperatorSpec spec) {
        if (spec instanceof Specs.KeyedProcessSpec<?, ?, ?> keyed) {
            return new KeyedProcessOperator<>(keyed.function());
        }
        if (spec instanceof Specs.CoProcessSpec<?, ?, ?> co) {
            return new CoProcessOperator<>(co.function());
        }
        throw new IllegalArgumentException("StatefulProcessLowering cannot lower " + spec.getClass().getName());
    }
}
