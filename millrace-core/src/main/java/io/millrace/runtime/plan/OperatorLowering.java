package io.millrace.runtime.plan;

import io.millrace.api.plan.LogicalNode;
import io.millrace.api.plan.OperatorSpec;
import io.millrace.runtime.operator.StreamOperator;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** Finds the lowering for each spec: the built-in one first, then those on the class path. */
public final class OperatorLowering implements OperatorFactory {
    private final List<SpecLowering> lowerings = new ArrayList<>();

    public OperatorLowering() {
        lowerings.add(new BuiltInLowering());
        for (SpecLowering l : ServiceLoader.load(SpecLowering.class)) {
            lowerings.add(l);
        }
    }

    @Override
    public StreamOperator<?> create(LogicalNode node) {
        OperatorSpec spec = node.spec();
        for (SpecLowering l : lowerings) {
            if (l.handles(spec)) {
                return l.create(spec);
            }
        }
        throw new IllegalStateException("no runtime operator for '" + node.name() + "' (" + spec.getClass().getName()
                + "): is the module that provides it on the class path?");
    }
}
