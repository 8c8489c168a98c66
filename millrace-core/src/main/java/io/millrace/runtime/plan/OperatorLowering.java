package io.millrace.runtime.plan;

import io.millrace.api.plan.LogicalNode;
import io.millrace.api.plan.OperatorSpec;
import io.millrace.api.plan.Specs;
import io.millrace.runtime.operator.FunctionCopies;
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

    /**
     * Subtask 0 gets the spec as the user built it; every other subtask a serialized copy, so that fields a
     * function sets in {@code open()} (state handles, buffers) are never shared between subtask threads.
     */
    @Override
    public StreamOperator<?> create(LogicalNode node, int subtask) {
        OperatorSpec spec = subtask == 0 || !copyPerSubtask(spec(node)) ? node.spec() : copy(node);
        for (SpecLowering l : lowerings) {
            if (l.handles(spec)) {
                return l.create(spec);
            }
        }
        throw new IllegalStateException("no runtime operator for '" + node.name() + "' (" + spec.getClass().getName()
                + "): is the module that provides it on the class path?");
    }

    private static OperatorSpec spec(LogicalNode node) {
        return node.spec();
    }

    /** Sources and sinks make a reader or writer per subtask themselves and may share state on purpose. */
    private static boolean copyPerSubtask(OperatorSpec spec) {
        return !(spec instanceof Specs.SinkSpec) && !(spec instanceof Specs.SourceSpec);
    }

    private static OperatorSpec copy(LogicalNode node) {
        try {
            return FunctionCopies.copyOf(node.spec());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("operator '" + node.name() + "' runs in parallel, so each subtask needs its own"
                    + " copy of its function " + functionClasses(node.spec()) + ", but it cannot be serialized ("
                    + e.getCause() + "). Make the function a"
                    + " top-level or static nested class with serializable fields, or give the operator parallelism 1.", e);
        }
    }

    /** The classes of the user objects a spec holds, for error messages. */
    private static String functionClasses(OperatorSpec spec) {
        StringBuilder b = new StringBuilder();
        if (spec.getClass().isRecord()) {
            for (java.lang.reflect.RecordComponent c : spec.getClass().getRecordComponents()) {
                try {
                    Object v = c.getAccessor().invoke(spec);
                    if (v != null && !v.getClass().getName().startsWith("java.")) {
                        b.append(b.length() == 0 ? "" : ", ").append(v.getClass().getName());
                    }
                } catch (ReflectiveOperationException ignored) {
                    // a component we cannot read is left out of the message
                }
            }
        }
        return b.length() == 0 ? spec.getClass().getName() : b.toString();
    }
}
