package io.millrace.cep;

import io.millrace.cep.Pattern.Element;
import java.util.ArrayList;
import java.util.List;

/**
 * Compiles a {@link Pattern} to an {@link Nfa} (a Glushkov construction, with quantifiers unrolled): for each
 * sequence it keeps the positions that can take its first event and those that can take its last, and links the
 * last positions of each element to the first positions of the elements that may come after it. Edges carry the
 * contiguity of the element they enter, and the negations they cross.
 */
final class NfaCompiler<E> {
    /** Out-degree limit: a node's live edges are a bit set in one long. */
    static final int MAX_EDGES = 63;
    /** Nodes are made per repetition: a bound on the unrolled size. */
    static final int MAX_NODES = 10_000;

    private record Negation<E>(boolean next, Condition<E> condition) {}

    private record Entry<E>(int node, List<Negation<E>> negations) {
        Entry<E> plus(Negation<E> n) {
            List<Negation<E>> l = new ArrayList<>(negations);
            l.add(n);
            return new Entry<>(node, l);
        }

        Entry<E> after(List<Negation<E>> before) {
            if (before.isEmpty()) {
                return this;
            }
            List<Negation<E>> l = new ArrayList<>(before);
            l.addAll(negations);
            return new Entry<>(node, l);
        }
    }

    private record Fragment<E>(List<Entry<E>> first, List<Entry<E>> last, boolean nullable) {}

    private final List<String> variables;
    private final List<Integer> nodeVariable = new ArrayList<>();
    private final List<Condition<E>> nodeCondition = new ArrayList<>();
    private final List<Boolean> nodeGreedy = new ArrayList<>();
    private final List<List<Nfa.Edge<E>>> edges = new ArrayList<>();

    private NfaCompiler(List<String> variables) {
        this.variables = variables;
    }

    /** Fails with IllegalArgumentException naming what is wrong (a negation at the end, an unknown skip variable). */
    static <E> Nfa<E> compile(Pattern<E> pattern) {
        List<String> variables = pattern.variableNames();
        NfaCompiler<E> c = new NfaCompiler<>(variables);
        Fragment<E> whole = c.sequence(pattern.elements());
        int[] starts = new int[whole.first().size()];
        for (int i = 0; i < starts.length; i++) {
            Entry<E> f = whole.first().get(i);
            if (!f.negations().isEmpty()) {
                throw new IllegalArgumentException("pattern '" + pattern + "': notNext/notFollowedBy cannot come before the first event of a match");
            }
            starts[i] = f.node();
        }
        boolean[] accepting = new boolean[c.nodeVariable.size()];
        for (Entry<E> l : whole.last()) {
            if (!l.negations().isEmpty()) {
                throw new IllegalArgumentException("pattern '" + pattern + "': notNext/notFollowedBy cannot end a pattern"
                        + " (nor be followed only by optional elements)");
            }
            accepting[l.node()] = true;
        }
        List<Nfa.Node<E>> nodes = new ArrayList<>();
        for (int i = 0; i < accepting.length; i++) {
            List<Nfa.Edge<E>> out = c.edges.get(i);
            if (out.size() > MAX_EDGES) {
                throw new IllegalArgumentException("pattern '" + pattern + "': variable '" + variables.get(c.nodeVariable.get(i))
                        + "' can be followed in " + out.size() + " ways, more than " + MAX_EDGES + "; simplify the optional elements after it");
            }
            long strict = 0;
            for (int e = 0; e < out.size(); e++) {
                if (out.get(e).contiguity() == Contiguity.STRICT) {
                    strict |= 1L << e;
                }
            }
            nodes.add(new Nfa.Node<>(c.nodeVariable.get(i), c.nodeCondition.get(i), c.nodeGreedy.get(i), accepting[i], List.copyOf(out), strict));
        }
        AfterMatchSkipStrategy skip = pattern.skipStrategy();
        int skipVariable = -1;
        if (skip.variable() != null) {
            skipVariable = variables.indexOf(skip.variable());
            if (skipVariable < 0) {
                throw new IllegalArgumentException("skip strategy " + skip + ": '" + skip.variable() + "' is not a variable of the pattern "
                        + variables);
            }
        }
        long within = pattern.within() == null ? -1 : pattern.within().toMillis();
        return new Nfa<>(variables, nodes, starts, within, skip.kind(), skipVariable);
    }

    private Fragment<E> sequence(List<Element<E>> elements) {
        List<Entry<E>> lasts = new ArrayList<>();
        List<Entry<E>> firsts = new ArrayList<>();
        boolean nullableSoFar = true;
        List<Negation<E>> leadingNegations = new ArrayList<>();
        for (Element<E> el : elements) {
            if (el.kind.negation()) {
                Negation<E> n = new Negation<>(el.kind == Element.Kind.NOT_NEXT, el.condition);
                List<Entry<E>> next = new ArrayList<>();
                for (Entry<E> l : lasts) {
                    next.add(l.plus(n));
                }
                lasts = next;
                if (nullableSoFar) {
                    leadingNegations.add(n);
                }
                continue;
            }
            Fragment<E> f = el.kind == Element.Kind.ATOM ? atom(el) : group(el);
            for (Entry<E> l : lasts) {
                for (Entry<E> fe : f.first()) {
                    addEdge(l.node(), fe.node(), el.contiguity, concat(l.negations(), fe.negations()), null, false);
                }
            }
            if (nullableSoFar) {
                for (Entry<E> fe : f.first()) {
                    firsts.add(fe.after(leadingNegations));
                }
            }
            List<Entry<E>> newLasts = new ArrayList<>(f.last());
            if (f.nullable()) {
                newLasts.addAll(lasts);
            } else {
                nullableSoFar = false;
            }
            lasts = newLasts;
        }
        return new Fragment<>(firsts, lasts, nullableSoFar);
    }

    private Fragment<E> atom(Element<E> el) {
        int copies = copies(el);
        int variable = variables.indexOf(el.name);
        int[] nodes = new int[copies];
        for (int i = 0; i < copies; i++) {
            nodes[i] = newNode(variable, el.condition, el.greedy);
        }
        for (int i = 0; i + 1 < copies; i++) {
            addEdge(nodes[i], nodes[i + 1], el.inner, List.of(), el.until, true);
        }
        if (el.max == Element.UNBOUNDED) {
            addEdge(nodes[copies - 1], nodes[copies - 1], el.inner, List.of(), el.until, true);
        }
        List<Entry<E>> last = new ArrayList<>();
        for (int i = el.min; i <= copies; i++) {
            last.add(new Entry<>(nodes[i - 1], List.of()));
        }
        return new Fragment<>(List.of(new Entry<>(nodes[0], List.of())), last, el.optional);
    }

    private Fragment<E> group(Element<E> el) {
        int copies = copies(el);
        List<Fragment<E>> bodies = new ArrayList<>();
        for (int i = 0; i < copies; i++) {
            bodies.add(sequence(el.group.elements()));
        }
        for (int i = 0; i + 1 < copies; i++) {
            link(bodies.get(i), bodies.get(i + 1), el.inner);
        }
        if (el.max == Element.UNBOUNDED) {
            link(bodies.get(copies - 1), bodies.get(copies - 1), el.inner);
        }
        List<Entry<E>> last = new ArrayList<>();
        for (int i = el.min; i <= copies; i++) {
            last.addAll(bodies.get(i - 1).last());
        }
        // an iteration takes at least one event: an all-optional body does not make the group nullable
        return new Fragment<>(bodies.get(0).first(), last, el.optional);
    }

    private void link(Fragment<E> from, Fragment<E> to, Contiguity contiguity) {
        for (Entry<E> l : from.last()) {
            for (Entry<E> f : to.first()) {
                addEdge(l.node(), f.node(), contiguity, concat(l.negations(), f.negations()), null, false);
            }
        }
    }

    private int copies(Element<E> el) {
        int copies = el.max == Element.UNBOUNDED ? el.min : el.max;
        if (copies > MAX_NODES || nodeVariable.size() + copies > MAX_NODES) {
            throw new IllegalArgumentException("pattern element " + el + " unrolls to more than " + MAX_NODES + " positions");
        }
        return copies;
    }

    private int newNode(int variable, Condition<E> condition, boolean greedy) {
        nodeVariable.add(variable);
        nodeCondition.add(condition);
        nodeGreedy.add(greedy);
        edges.add(new ArrayList<>());
        return nodeVariable.size() - 1;
    }

    private void addEdge(int from, int to, Contiguity contiguity, List<Negation<E>> negations, Condition<E> until, boolean repeat) {
        List<Condition<E>> notNext = new ArrayList<>();
        List<Condition<E>> notFollowedBy = new ArrayList<>();
        for (Negation<E> n : negations) {
            Condition<E> c = n.condition() == null ? Condition.<E>simple(e -> true) : n.condition();
            (n.next() ? notNext : notFollowedBy).add(c);
        }
        boolean exitsGreedy = nodeGreedy.get(from) && !repeat;
        edges.get(from).add(new Nfa.Edge<>(to, contiguity, List.copyOf(notNext), List.copyOf(notFollowedBy), until, repeat, exitsGreedy));
    }

    private static <E> List<Negation<E>> concat(List<Negation<E>> a, List<Negation<E>> b) {
        if (a.isEmpty()) {
            return b;
        }
        if (b.isEmpty()) {
            return a;
        }
        List<Negation<E>> l = new ArrayList<>(a);
        l.addAll(b);
        return l;
    }
}
