package io.millrace.cep;

import java.io.Serializable;
import java.util.List;

/**
 * A pattern compiled to a position automaton: one node per event-taking position (a variable's condition; a
 * quantified element has one node per repetition up to its bound, an unbounded one loops on its last), and edges
 * that say which node may take the next event, with which contiguity, past which negations. Immutable and
 * serializable: it travels in the plan.
 */
final class Nfa<E> implements Serializable {
    /** One way forward from a node: the next node, how the event it takes must follow, and what must not happen first. */
    record Edge<E>(int target, Contiguity contiguity, List<Condition<E>> notNext, List<Condition<E>> notFollowedBy,
            Condition<E> until, boolean repeat, boolean exitsGreedy) implements Serializable {}

    /** A position: the variable it binds, its condition (null: every event), whether it is a greedy loop, its edges. */
    record Node<E>(int variable, Condition<E> condition, boolean greedy, boolean accepting, List<Edge<E>> edges, long strictEdges)
            implements Serializable {
        long allEdges() {
            return edges.isEmpty() ? 0 : -1L >>> (64 - edges.size());
        }
    }

    final List<String> variables;
    final List<Node<E>> nodes;
    final int[] starts;
    /** Milliseconds, or -1 without within. */
    final long within;
    final AfterMatchSkipStrategy.Kind skip;
    /** The variable of skipToFirst/skipToLast, else -1. */
    final int skipVariable;
    /** Whether any condition needs the partial match. */
    final boolean iterative;
    /** See {@link #relevance(List)}. */
    private final List<Condition<E>> relevance;

    Nfa(List<String> variables, List<Node<E>> nodes, int[] starts, long within, AfterMatchSkipStrategy.Kind skip, int skipVariable) {
        this.variables = List.copyOf(variables);
        this.nodes = List.copyOf(nodes);
        this.starts = starts.clone();
        this.within = within;
        this.skip = skip;
        this.skipVariable = skipVariable;
        boolean it = false;
        for (Node<E> n : nodes) {
            it |= n.condition() != null && n.condition().iterative();
            for (Edge<E> e : n.edges()) {
                it |= e.until() != null && e.until().iterative();
                for (Condition<E> c : e.notNext()) {
                    it |= c.iterative();
                }
                for (Condition<E> c : e.notFollowedBy()) {
                    it |= c.iterative();
                }
            }
        }
        this.iterative = it;
        this.relevance = relevance(nodes);
    }

    /**
     * The conditions an event must meet one of to matter, or null when every event matters. Without strict
     * contiguity and notNext, and with simple conditions only, an event that no condition accepts changes no partial
     * match (relaxed and non-deterministic edges skip it) and starts none, so it need not be kept or fed.
     */
    private static <E> List<Condition<E>> relevance(List<Node<E>> nodes) {
        java.util.Set<Condition<E>> all = new java.util.LinkedHashSet<>();
        for (Node<E> n : nodes) {
            if (n.condition() == null || n.condition().iterative()) {
                return null;
            }
            all.add(n.condition());
            for (Edge<E> e : n.edges()) {
                if (e.contiguity() == Contiguity.STRICT || !e.notNext().isEmpty()) {
                    return null;
                }
                for (Condition<E> c : e.notFollowedBy()) {
                    if (c.iterative()) {
                        return null;
                    }
                    all.add(c);
                }
                if (e.until() != null) {
                    if (e.until().iterative()) {
                        return null;
                    }
                    all.add(e.until());
                }
            }
        }
        return List.copyOf(all);
    }

    /** Whether {@code event} can start or change a partial match (see {@link #relevance}); conditions see no partial match. */
    boolean relevant(E event) throws Exception {
        if (relevance == null) {
            return true;
        }
        IterativeCondition.Context<E> none = new IterativeCondition.Context<>() {
            @Override
            public List<E> eventsOf(String name) {
                return List.of();
            }

            @Override
            public long timestamp() {
                return Long.MIN_VALUE;
            }
        };
        for (int i = 0; i < relevance.size(); i++) {
            if (relevance.get(i).function().filter(event, none)) {
                return true;
            }
        }
        return false;
    }

    Node<E> node(int i) {
        return nodes.get(i);
    }
}
