package io.millrace.runtime.plan;

import io.millrace.api.PipelineConfig;
import io.millrace.api.plan.LogicalNode;
import io.millrace.api.plan.LogicalPlan;
import io.millrace.api.plan.OperatorSpec;
import io.millrace.api.plan.Specs;
import io.millrace.operator.SpecLowering;
import io.millrace.operator.StreamOperator;
import io.millrace.runtime.operator.FunctionCopies;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** Finds the lowering for each spec: the built-in one first, then those on the class path. */
public final class OperatorLowering implements OperatorFactory {
    private final List<SpecLowering> lowerings = new ArrayList<>();
    private final PipelineConfig config;

    /** The lowering of a job with the default configuration. */
    public OperatorLowering() {
        this(new PipelineConfig());
    }

    /** The lowering of a job configured by {@code config}: operators may depend on it (see {@link SpecLowering}). */
    public OperatorLowering(PipelineConfig config) {
        this.config = config;
        lowerings.add(new BuiltInLowering());
        for (SpecLowering l : ServiceLoader.load(SpecLowering.class)) {
            lowerings.add(l);
        }
    }

    /** {@code plan} after the rewrite of every lowering on the class path, in their order. */
    static LogicalPlan rewrite(LogicalPlan plan) {
        for (SpecLowering l : new OperatorLowering().lowerings) {
            plan = l.rewrite(plan);
        }
        return plan;
    }

    /**
     * An operator that runs alone gets the spec as the user built it. Operators in parallel get a serialized copy
     * on every subtask, so that fields a function sets in {@code open()} (state handles, buffers) are never shared
     * between subtask threads; subtask 0 too, so that all subtasks run the same classes: a lambda read back from
     * its serialized form is an instance of another class than the lambda the user built, and a call site in the
     * engine that sees both (every operator calls its function from one shared method) cannot be inlined as well,
     * or at all once two functions of one kind share a task (two filters would run as four classes).
     */
    @Override
    public StreamOperator<?> create(LogicalNode node, int subtask, int parallelism) {
        OperatorSpec spec = parallelism == 1 || !copyPerSubtask(spec(node)) ? node.spec() : copy(node);
        for (SpecLowering l : lowerings) {
            if (l.handles(spec)) {
                return l.create(spec, config);
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
