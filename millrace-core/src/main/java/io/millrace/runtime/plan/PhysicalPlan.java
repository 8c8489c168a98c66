package io.millrace.runtime.plan;

import io.millrace.api.OutputTag;
import io.millrace.api.plan.LogicalEdge;
import io.millrace.api.plan.LogicalNode;
import io.millrace.api.plan.LogicalPlan;
import io.millrace.api.plan.Partitioning;
import io.millrace.api.plan.Specs;
import io.millrace.api.source.BadRecord;
import io.millrace.api.source.BadRecordPolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The logical plan resolved for running: each node's parallelism, each edge's concrete partitioning,
 * and the chains — groups of operators joined by forward edges that run in one task as direct calls.
 * A node is chained to its input when it has exactly one input edge, that edge is forward (explicit or
 * by default) and both sides have the same parallelism, and the node is not a source.
 */
public final class PhysicalPlan {
    /** An edge with its consumer and its resolved partitioning. */
    public record Edge(LogicalNode from, LogicalNode to, LogicalEdge logical, Partitioning partitioning, boolean chained) {
        public OutputTag<?> sideOutput() {
            return logical.sideOutput();
        }

        public int inputIndex() {
            return logical.inputIndex();
        }

        public String describe() {
            return "edge '" + from.name() + "' -> '" + to.name() + "'";
        }
    }

    /** Operators that run together in one task, head first, every member after its chained input. */
    public record Chain(int id, List<LogicalNode> members, int parallelism) {
        public LogicalNode head() {
            return members.get(0);
        }

        public String name() {
            StringBuilder b = new StringBuilder();
            for (LogicalNode n : members) {
                if (b.length() > 0) {
                    b.append(" -> ");
                }
                b.append(n.name());
            }
            return b.toString();
        }
    }

    private final LogicalPlan logical;
    private final Map<LogicalNode, Integer> parallelism = new IdentityHashMap<>();
    private final List<Edge> edges = new ArrayList<>();
    private final Map<LogicalNode, List<Edge>> outgoing = new IdentityHashMap<>();
    private final Map<LogicalNode, List<Edge>> incoming = new IdentityHashMap<>();
    private final Map<LogicalNode, Chain> chainOf = new IdentityHashMap<>();
    private final List<Chain> chains = new ArrayList<>();

    private PhysicalPlan(LogicalPlan logical) {
        this.logical = logical;
    }

    /**
     * Resolves {@code logical} after the lowerings' rewrites (such as local window aggregation, see
     * {@link io.millrace.operator.SpecLowering#rewrite}); {@link #logical()} is then the rewritten plan,
     * whose rewritten nodes are copies.
     */
    public static PhysicalPlan of(LogicalPlan logical) {
        PhysicalPlan p = new PhysicalPlan(OperatorLowering.rewrite(logical));
        p.resolveParallelism();
        p.resolveEdges();
        p.validate();
        p.buildChains();
        return p;
    }

    private void resolveParallelism() {
        int maxP = logical.config().maxParallelism();
        for (LogicalNode n : logical.nodes()) {
            int p = n.parallelism() > 0 ? n.parallelism() : logical.config().parallelism();
            boolean keyed = n.inputs().stream().anyMatch(e -> e.partitioning() == Partitioning.HASH);
            if (keyed && p > maxP) {
                throw new IllegalArgumentException("operator '" + n.name() + "' has parallelism " + p
                        + " but keyed operators can have at most maxParallelism = " + maxP + " subtasks");
            }
            parallelism.put(n, p);
        }
    }

    private void resolveEdges() {
        for (LogicalNode n : logical.nodes()) {
            incoming.put(n, new ArrayList<>());
            outgoing.putIfAbsent(n, new ArrayList<>());
        }
        for (LogicalNode to : logical.nodes()) {
            for (LogicalEdge le : to.inputs()) {
                int pFrom = parallelism.get(le.from());
                int pTo = parallelism.get(to);
                Partitioning part = le.partitioning();
                if (part == Partitioning.DEFAULT) {
                    part = pFrom == pTo ? Partitioning.FORWARD : Partitioning.REBALANCE;
                }
                if (part == Partitioning.FORWARD && pFrom != pTo) {
                    throw new IllegalArgumentException("forward edge '" + le.from().name() + "' -> '" + to.name()
                            + "' joins parallelism " + pFrom + " to " + pTo + ": forward needs equal parallelism; use"
                            + " rebalance() or set the same parallelism");
                }
                boolean chained = part == Partitioning.FORWARD && to.inputs().size() == 1 && !(to.spec() instanceof Specs.SourceSpec);
                Edge e = new Edge(le.from(), to, le, part, chained);
                edges.add(e);
                incoming.get(to).add(e);
                outgoing.computeIfAbsent(le.from(), k -> new ArrayList<>()).add(e);
            }
        }
    }

    private void validate() {
        boolean unbounded = logical.nodes().stream().anyMatch(n -> n.spec() instanceof Specs.SourceSpec<?> s
                && s.source().boundedness() == io.millrace.api.source.Boundedness.CONTINUOUS_UNBOUNDED);
        for (LogicalNode n : logical.nodes()) {
            if (unbounded && !logical.config().checkpoints().enabled() && n.spec() instanceof Specs.SinkSpec<?> sink
                    && sink.sink() instanceof io.millrace.api.sink.TwoPhaseCommitSink<?, ?>) {
                throw new IllegalArgumentException("sink '" + n.name() + "' is exactly-once: it commits its output on checkpoints,"
                        + " and this job reads an unbounded source without checkpointing, so nothing would ever be committed;"
                        + " set a checkpoint directory (PipelineConfig.checkpoints().directory(...))");
            }
            if (n.spec() instanceof Specs.SourceSpec<?> s && s.badRecords() == BadRecordPolicy.DEAD_LETTER) {
                boolean read = outgoing.get(n).stream().anyMatch(e -> BadRecord.DEAD_LETTERS.equals(e.sideOutput()));
                if (!read) {
                    throw new IllegalArgumentException("source '" + n.name() + "' sends bad records to dead letters,"
                            + " but nothing reads them: add a sink to getSideOutput(BadRecord.DEAD_LETTERS)");
                }
            }
            if (!(n.spec() instanceof Specs.SourceSpec) && n.inputs().isEmpty()) {
                throw new IllegalArgumentException("operator '" + n.name() + "' has no input");
            }
        }
    }

    private void buildChains() {
        for (LogicalNode n : logical.nodes()) {
            List<Edge> in = incoming.get(n);
            if (in.size() == 1 && in.get(0).chained()) {
                continue; // joins its input's chain
            }
            List<LogicalNode> members = new ArrayList<>();
            collect(n, members);
            Chain c = new Chain(chains.size(), members, parallelism.get(n));
            chains.add(c);
            for (LogicalNode m : members) {
                chainOf.put(m, c);
            }
        }
    }

    private void collect(LogicalNode n, List<LogicalNode> members) {
        members.add(n);
        for (Edge e : outgoing.get(n)) {
            if (e.chained()) {
                collect(e.to(), members);
            }
        }
    }

    public LogicalPlan logical() {
        return logical;
    }

    public int parallelism(LogicalNode n) {
        return parallelism.get(n);
    }

    public List<Chain> chains() {
        return chains;
    }

    public Chain chainOf(LogicalNode n) {
        return chainOf.get(n);
    }

    public List<Edge> outgoing(LogicalNode n) {
        return outgoing.get(n);
    }

    public List<Edge> incoming(LogicalNode n) {
        return incoming.get(n);
    }

    public List<Edge> edges() {
        return edges;
    }

    /** Whether the node needs keyed state: its spec says so or its inputs are hash-partitioned. */
    public boolean keyed(LogicalNode n) {
        if (n.spec().keyed()) {
            return true;
        }
        return n.spec() instanceof Specs.CoProcessSpec<?, ?, ?> co && co.keyed();
    }

    /** A readable outline, one chain per line, for logs and the CLI. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        Map<Integer, String> byId = new HashMap<>();
        for (Chain c : chains) {
            byId.put(c.id(), c.name());
        }
        for (Chain c : chains) {
            b.append("task ").append(c.id()).append(" x").append(c.parallelism()).append(": ").append(c.name()).append('\n');
            for (LogicalNode m : c.members()) {
                for (Edge e : outgoing.get(m)) {
                    if (!e.chained()) {
                        b.append("  ").append(e.partitioning()).append(e.sideOutput() != null ? " (side " + e.sideOutput().id() + ")" : "")
                                .append(" -> task ").append(chainOf.get(e.to()) == null ? "?" : chainOf.get(e.to()).id()).append('\n');
                    }
                }
            }
        }
        return b.toString();
    }
}
