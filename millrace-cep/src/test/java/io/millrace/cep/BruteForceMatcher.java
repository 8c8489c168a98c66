package io.millrace.cep;

import io.millrace.cep.Pattern.Element;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import java.util.function.ToLongFunction;

/**
 * Every match of a pattern over one key's events, sorted by time, straight from the semantics in docs/cep.md: a
 * backtracking search over the pattern's elements (not the compiled automaton) from every event as a first event,
 * then the skip strategy applied to the set of matches. No state, no buffer, no watermarks: what the engine must
 * produce, computed the slow way.
 */
final class BruteForceMatcher<E> {
    /** Thrown when a search grows beyond its budget: the caller picks another pattern. */
    static final class TooManyMatches extends RuntimeException {
        TooManyMatches() {
            super(null, null, false, false);
        }
    }

    record Match(int[] positions, int[] variables) {
        int start() {
            return positions[0];
        }

        int end() {
            return positions[positions.length - 1];
        }
    }

    private record Negation<E>(boolean next, Condition<E> condition) {}

    /**
     * A partial match as the engine keeps it: one per take along one way through the pattern. Alive when one of the
     * ways on from it still waits for an event when its within ends; accepting when the pattern may end with it.
     */
    private static final class Origin {
        final int[] positions;
        final int[] variables;
        boolean alive;
        boolean accepting;

        Origin(int[] positions, int[] variables) {
            this.positions = positions;
            this.variables = variables;
        }
    }

    /** A partial parse: events taken so far, and what constrains the next take. */
    private record Ctx<E>(int[] positions, int[] variables, Contiguity entry, List<Negation<E>> negations, IntPredicate blocked,
            Origin origin) {
        Ctx<E> withNegation(Negation<E> n) {
            List<Negation<E>> l = new ArrayList<>(negations);
            l.add(n);
            return new Ctx<>(positions, variables, entry, l, blocked, origin);
        }

        Ctx<E> entering(Contiguity c) {
            return new Ctx<>(positions, variables, c, negations, blocked, origin);
        }

        Ctx<E> blocking(IntPredicate b) {
            return new Ctx<>(positions, variables, entry, negations, b, origin);
        }

        int last() {
            return positions[positions.length - 1];
        }
    }

    private final Pattern<E> pattern;
    private final List<E> events;
    private final long[] times;
    private final List<String> names;
    private final long within;
    private final int budget;
    private int work;
    private final List<Origin> origins = new ArrayList<>();
    private final List<Match> emitted = new ArrayList<>();
    private final List<Long> limits = new ArrayList<>();

    private BruteForceMatcher(Pattern<E> pattern, List<E> events, ToLongFunction<E> time, int budget) {
        this.pattern = pattern;
        this.events = events;
        this.times = events.stream().mapToLong(time).toArray();
        this.names = pattern.variableNames();
        this.within = pattern.within() == null ? -1 : pattern.within().toMillis();
        this.budget = budget;
    }

    /** The matches in the order the engine emits them, as maps from variable to events. */
    static <E> List<Map<String, List<E>>> matches(Pattern<E> pattern, List<E> sortedEvents, ToLongFunction<E> time, int budget) {
        return run(pattern, sortedEvents, time, budget).matches();
    }

    /** Matches (in the engine's order) and the distinct timed-out partial matches (in no particular order). */
    record Result<E>(List<Map<String, List<E>>> matches, List<Map<String, List<E>>> timeouts) {}

    static <E> Result<E> run(Pattern<E> pattern, List<E> sortedEvents, ToLongFunction<E> time, int budget) {
        BruteForceMatcher<E> m = new BruteForceMatcher<>(pattern, sortedEvents, time, budget);
        List<Map<String, List<E>>> out = new ArrayList<>();
        for (Match match : m.skip(m.all())) {
            out.add(m.toMap(match));
        }
        return new Result<>(out, m.timeouts());
    }

    /**
     * The partial matches whose within ended while one of their ways on still waited, that were not matches themselves
     * and that no emitted match had discarded before (its skip strategy's limit above their start, emitted before their
     * within ended).
     */
    private List<Map<String, List<E>>> timeouts() {
        List<Map<String, List<E>>> out = new ArrayList<>();
        if (within < 0) {
            return out;
        }
        TreeSet<Match> distinct = new TreeSet<>((a, b) -> {
            int c = Arrays.compare(a.positions, b.positions);
            return c != 0 ? c : Arrays.compare(a.variables, b.variables);
        });
        for (Origin o : origins) {
            if (!o.alive || o.accepting) {
                continue;
            }
            long deadline = times[o.positions[0]] + within;
            boolean discarded = false;
            for (int i = 0; i < emitted.size(); i++) {
                if (limits.get(i) > o.positions[0] && times[emitted.get(i).end()] < deadline) {
                    discarded = true;
                }
            }
            if (!discarded) {
                distinct.add(new Match(o.positions, o.variables));
            }
        }
        for (Match m : distinct) {
            out.add(toMap(m));
        }
        return out;
    }

    private Ctx<E> take(Ctx<E> c, int position, int variable) {
        int[] p = Arrays.copyOf(c.positions(), c.positions().length + 1);
        int[] v = Arrays.copyOf(c.variables(), c.variables().length + 1);
        p[c.positions().length] = position;
        v[c.variables().length] = variable;
        Origin o = new Origin(p, v);
        origins.add(o);
        return new Ctx<>(p, v, null, List.of(), null, o);
    }

    private TreeSet<Match> all() {
        Comparator<Match> order = Comparator.comparingInt(Match::end)
                .thenComparing((a, b) -> Arrays.compare(a.positions, b.positions))
                .thenComparing((a, b) -> Arrays.compare(a.variables, b.variables));
        TreeSet<Match> found = new TreeSet<>(order);
        for (int s = 0; s < events.size(); s++) {
            int start = s;
            sequence(pattern.elements(), 0, new Ctx<>(new int[0], new int[0], null, List.of(), null, null), c -> {
                if (c.positions().length > 0 && c.positions()[0] == start) {
                    c.origin().accepting = true;
                    found.add(new Match(c.positions(), c.variables()));
                    if (found.size() > budget) {
                        throw new TooManyMatches();
                    }
                }
            }, start);
        }
        return found;
    }

    private List<Match> skip(TreeSet<Match> all) {
        AfterMatchSkipStrategy skip = pattern.skipStrategy();
        int skipVariable = skip.variable() == null ? -1 : names.indexOf(skip.variable());
        long limit = Long.MIN_VALUE;
        for (Match m : all) {
            if (m.start() < limit) {
                continue;
            }
            emitted.add(m);
            long l = switch (skip.kind()) {
                case NO_SKIP -> Long.MIN_VALUE;
                case SKIP_TO_NEXT -> m.start() + 1L;
                case SKIP_PAST_LAST_EVENT -> m.end() + 1L;
                case SKIP_TO_FIRST -> firstOf(m, skipVariable);
                case SKIP_TO_LAST -> lastOf(m, skipVariable);
            };
            limit = Math.max(limit, l);
            limits.add(l);
        }
        return emitted;
    }

    private static long firstOf(Match m, int variable) {
        for (int i = 0; i < m.positions.length; i++) {
            if (m.variables[i] == variable) {
                return m.positions[i];
            }
        }
        return Long.MIN_VALUE;
    }

    private static long lastOf(Match m, int variable) {
        for (int i = m.positions.length - 1; i >= 0; i--) {
            if (m.variables[i] == variable) {
                return m.positions[i];
            }
        }
        return Long.MIN_VALUE;
    }

    private void sequence(List<Element<E>> elements, int i, Ctx<E> c, Consumer<Ctx<E>> k, int start) {
        if (++work > budget * 50) {
            throw new TooManyMatches();
        }
        if (i == elements.size()) {
            k.accept(c);
            return;
        }
        Element<E> el = elements.get(i);
        if (el.kind.negation()) {
            sequence(elements, i + 1, c.withNegation(new Negation<>(el.kind == Element.Kind.NOT_NEXT, el.condition)), k, start);
            return;
        }
        repeat(el, 0, c, cc -> sequence(elements, i + 1, cc, k, start), start);
    }

    private void repeat(Element<E> el, int count, Ctx<E> c, Consumer<Ctx<E>> k, int start) {
        if (count >= el.min || (count == 0 && el.optional)) {
            Ctx<E> exit = c;
            if (el.kind == Element.Kind.ATOM && el.greedy && count >= 1 && count < el.max) {
                List<Integer> repeats = candidates(c, el.inner, List.of(), el.until, null, el.condition, start);
                exit = c.blocking(repeats::contains);
            }
            k.accept(exit);
        }
        if (count >= el.max) {
            return;
        }
        Contiguity contiguity = count == 0 ? (c.entry() != null ? c.entry() : el.contiguity) : el.inner;
        if (el.kind == Element.Kind.ATOM) {
            int variable = names.indexOf(el.name);
            Condition<E> until = count == 0 ? null : el.until;
            for (int q : candidates(c, contiguity, c.negations(), until, c.blocked(), el.condition, start)) {
                repeat(el, count + 1, take(c, q, variable), k, start);
            }
        } else {
            int before = c.positions().length;
            sequence(el.group.elements(), 0, c.entering(contiguity), cc -> {
                if (cc.positions().length > before) {
                    repeat(el, count + 1, cc, k, start);
                }
            }, start);
        }
    }

    /** The events the next take may be: the semantics of contiguity, negation, until, greedy and within. */
    private List<Integer> candidates(Ctx<E> c, Contiguity contiguity, List<Negation<E>> negations, Condition<E> until, IntPredicate blocked,
            Condition<E> condition, int start) {
        List<Integer> out = new ArrayList<>();
        if (c.positions().length == 0) {
            if (holds(condition, start, c)) {
                out.add(start);
            }
            return out;
        }
        int p = c.last();
        if (p + 1 < events.size() && (within < 0 || times[p + 1] - times[c.positions()[0]] < within)) {
            for (Negation<E> n : negations) {
                if (n.next() && holds(n.condition(), p + 1, c)) {
                    return out;
                }
            }
        }
        boolean waiting = true;                      // still waiting when the events or the within run out
        for (int q = p + 1; q < events.size(); q++) {
            if (within >= 0 && times[q] - times[c.positions()[0]] >= within) {
                break;
            }
            if (until != null && holds(until, q, c)) {
                waiting = false;
                break;
            }
            boolean take = holds(condition, q, c) && (blocked == null || !blocked.test(q));
            if (take) {
                out.add(q);
                if (contiguity != Contiguity.ANY) {
                    waiting = false;
                    break;
                }
            } else if (contiguity == Contiguity.STRICT) {
                waiting = false;
                break;
            }
            boolean stopped = false;
            for (Negation<E> n : negations) {
                if (!n.next() && holds(n.condition(), q, c)) {
                    stopped = true;
                }
            }
            if (stopped) {
                waiting = false;
                break;
            }
        }
        if (waiting && c.origin() != null) {
            c.origin().alive = true;
        }
        return out;
    }

    private boolean holds(Condition<E> condition, int q, Ctx<E> c) {
        if (condition == null) {
            return true;
        }
        try {
            return condition.function().filter(events.get(q), new IterativeCondition.Context<>() {
                @Override
                public List<E> eventsOf(String name) {
                    int v = names.indexOf(name);
                    List<E> l = new ArrayList<>();
                    for (int i = 0; i < c.positions().length; i++) {
                        if (c.variables()[i] == v) {
                            l.add(events.get(c.positions()[i]));
                        }
                    }
                    return l;
                }

                @Override
                public long timestamp() {
                    return times[q];
                }
            });
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private Map<String, List<E>> toMap(Match m) {
        Map<String, List<E>> out = new LinkedHashMap<>();
        for (int v = 0; v < names.size(); v++) {
            List<E> l = new ArrayList<>();
            for (int i = 0; i < m.positions.length; i++) {
                if (m.variables[i] == v) {
                    l.add(events.get(m.positions[i]));
                }
            }
            if (!l.isEmpty()) {
                out.put(names.get(v), l);
            }
        }
        return out;
    }
}
