package io.millrace.runtime.broadcast;

import io.millrace.api.plan.OperatorSpec;
import io.millrace.api.plan.Specs;
import io.millrace.operator.SpecLowering;
import io.millrace.operator.StreamOperator;

/** Lowers {@link Specs.BroadcastProcessSpec} and {@link Specs.KeyedBroadcastProcessSpec} to the broadcast operators. */
public final class BroadcastLowering implements SpecLowering {
    @Override
    public boolean handles(OperatorSpec spec) {
        return spec instanceof Specs.BroadcastProcessSpec<?, ?, ?> || spec instanceof Specs.KeyedBroadcastProcessSpec<?, ?, ?, ?>;
    }

    @Override
    public StreamOperator<?> create(OperatorSpec spec) {
        if (spec instanceof Specs.KeyedBroadcastProcessSpec<?, ?, ?, ?> keyed) {
            return new KeyedBroadcastProcessOperator<>(keyed.function(), keyed.descriptors());
        }
        if (spec instanceof Specs.BroadcastProcessSpec<?, ?, ?> plain) {
            return new BroadcastProcessOperator<>(plain.function(), plain.descriptors());
        }
        throw new IllegalArgumentException("BroadcastLowering cannot lower " + spec.getClass().getName());
    }
}
