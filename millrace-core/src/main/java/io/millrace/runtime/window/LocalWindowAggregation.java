package io.millrace.runtime.window;

import io.millrace.api.PipelineConfig;
import io.millrace.api.plan.LogicalEdge;
import io.millrace.api.plan.LogicalNode;
import io.millrace.api.plan.LogicalPlan;
import io.millrace.api.plan.OperatorSpec;
import io.millrace.api.plan.Partitioning;
import io.millrace.api.time.TimeDomain;
import io.millrace.api.window.TimeWindows;
import io.millrace.api.window.WindowSpec;
import io.millrace.runtime.operator.FunctionCopies;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The plan rewrite of two-phase window aggregation: every eligible window's input becomes
 * {@code input -> (forward, chained) LocalWindowAggregator -> (hash by the partial's key) -> window}, the
 * aggregator at the input's parallelism (one per input edge of a union). Eligible: event-time tumbling or sliding
 * windows with the default trigger, contents folded by a reduce or aggregate function (with or without a process
 * window function on top), no allowed lateness, no late-data side output, and a function and key selector that
 * can be copied (serialized) for the aggregators; with {@link PipelineConfig#localWindowAggregation()} on. Other windows keep their plan.
 *
 * <p>The window keeps its node id, name and uid, so its state id is the same with and without the rewrite:
 * a checkpoint taken either way restores either way. An aggregator has no state; its name is the window's plus
 * {@code " (local)"}.
 */
public final class LocalWindowAggregation {
    private LocalWindowAggregation() {}

    /** {@code plan} with a local aggregator in front of each eligible window, or {@code plan} itself when none is. */
    public static LogicalPlan rewrite(LogicalPlan plan) {
        PipelineConfig config = plan.config();
        if (!config.localWindowAggregation()) {
            return plan;
        }
        Map<LogicalNode, LocalWindowAggregateSpec> eligible = new IdentityHashMap<>();
        for (LogicalNode n : plan.nodes()) {
            LocalWindowAggregateSpec local = localSpec(n, config.localWindowAggregationMaxKeys());
            if (local != null) {
                eligible.put(n, local);
            }
        }
        if (eligible.isEmpty()) {
            return plan;
        }
        Map<LogicalNode, LogicalNode> copies = new IdentityHashMap<>();
        List<LogicalNode> nodes = new ArrayList<>();
        for (LogicalNode n : plan.nodes()) {
            LocalWindowAggregateSpec local = eligible.get(n);
            LogicalNode copy = copyOf(n, local == null ? n.spec() : new PartialWindowSpec((WindowSpec) n.spec()));
            if (local == null) {
                for (LogicalEdge e : n.inputs()) {
                    copy.addInput(new LogicalEdge(copies.get(e.from()), e.sideOutput(), e.partitioning(), e.keySelector(), e.inputIndex()));
                }
            } else {
                int k = 0;
                for (LogicalEdge e : n.inputs()) {
                    LogicalNode from = copies.get(e.from());
                    LogicalNode aggregator = new LogicalNode(n.id(), local);
                    aggregator.setName(n.name() + " (local" + (n.inputs().size() > 1 ? " " + ++k : "") + ")");
                    if (from.parallelism() > 0) {
                        aggregator.setParallelism(from.parallelism());
                    }
                    aggregator.addInput(new LogicalEdge(from, e.sideOutput(), Partitioning.FORWARD, null, 0));
                    nodes.add(aggregator);
                    copy.addInput(new LogicalEdge(aggregator, null, Partitioning.HASH, PartialAggregate.BY_KEY, e.inputIndex()));
                }
            }
            copies.put(n, copy);
            nodes.add(copy);
        }
        return new LogicalPlan(nodes, config);
    }

    /** A copy of {@code n} with {@code spec} and without inputs: same id, name, uid and parallelism. */
    private static LogicalNode copyOf(LogicalNode n, OperatorSpec spec) {
        LogicalNode copy = new LogicalNode(n.id(), spec);
        copy.setName(n.name());
        if (n.uid() != null) {
            copy.setUid(n.uid());
        }
        if (n.parallelism() > 0) {
            copy.setParallelism(n.parallelism());
        }
        return copy;
    }

    /** The aggregator of an eligible window node, or null. */
    private static LocalWindowAggregateSpec localSpec(LogicalNode n, int maxKeys) {
        if (!(n.spec() instanceof WindowSpec w) || !(w.assigner() instanceof TimeWindows windows) || !eligible(w)
                || n.inputs().isEmpty()) {
            return null;
        }
        LogicalEdge first = n.inputs().get(0);
        for (LogicalEdge e : n.inputs()) {
            if (e.partitioning() != Partitioning.HASH || e.keySelector() != first.keySelector()) {
                return null;
            }
        }
        try {
            // a copy: the aggregators' subtasks run their own functions and key selector, also subtask 0
            return FunctionCopies.copyOf(new LocalWindowAggregateSpec(windows, w.reducer(), w.aggregator(), first.keySelector(), maxKeys));
        } catch (IllegalArgumentException notSerializable) {
            return null; // the window operator keeps the only instance of its function
        }
    }

    /** Whether a window spec can be computed in two phases with the same results. */
    static boolean eligible(WindowSpec w) {
        return w.assigner() instanceof TimeWindows
                && w.assigner().timeDomain() == TimeDomain.EVENT_TIME
                && w.usesDefaultTrigger()
                && (w.reducer() != null || w.aggregator() != null)
                && w.allowedLatenessMillis() == 0
                && w.lateDataTag() == null;
    }
}
