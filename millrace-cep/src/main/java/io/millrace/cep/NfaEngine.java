package io.millrace.cep;

import io.millrace.api.state.MapState;
import io.millrace.api.state.ValueState;
import io.millrace.cep.SharedBufferState.BufferedEvent;
import io.millrace.cep.SharedBufferState.Run;
import io.millrace.cep.SharedBufferState.Runs;
import io.millrace.cep.SharedBufferState.Step;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs an {@link Nfa} for the current key over its keyed state: the partial matches ({@link Run}s) in one value, and
 * the shared buffer, events and steps in two maps, each event stored once and each step shared by the partial
 * matches that have it in common, both reference-counted and removed with the last reference. Events come in their
 * time order, one {@link #process} call each; {@link #expire} ends the partial matches that {@code within} has
 * passed. Task thread only; the caller sets the key.
 */
final class NfaEngine<E> {
    /** Receives what the engine finds; called during {@link #process} and {@link #expire}. */
    interface Listener<E> {
        void onMatch(Map<String, List<E>> match, long timestamp) throws Exception;

        void onTimeout(Map<String, List<E>> partialMatch, long timestamp) throws Exception;
    }

    private final Nfa<E> nfa;
    private final MapState<Long, BufferedEvent<E>> events;
    private final MapState<Long, Step> steps;
    private final ValueState<Runs> runs;

    private long nextEvent;
    private long nextStep;
    private long currentId = -1;
    private E current;
    private long currentTime;
    private int currentRefs;

    NfaEngine(Nfa<E> nfa, MapState<Long, BufferedEvent<E>> events, MapState<Long, Step> steps, ValueState<Runs> runs) {
        this.nfa = nfa;
        this.events = events;
        this.steps = steps;
        this.runs = runs;
    }

    /**
     * Feeds one event of the current key, at {@code time}, after every earlier one; first the partial matches whose
     * within has passed at {@code time} time out, as in {@link #expire}. Returns whether the key had no partial match
     * before and has some now (all started with this event, so the earliest {@code within} ends at {@code time + within}).
     */
    boolean process(E event, long time, Listener<E> listener) throws Exception {
        List<Run> stored = load();
        List<Run> before = expired(stored, time, listener);
        current = event;
        currentTime = time;
        currentId = -1;
        currentRefs = 0;
        try {
            List<Run> survivors = new ArrayList<>();
            List<Run> created = new ArrayList<>();
            for (Run r : before) {
                step(r, survivors, created);
            }
            for (int start : nfa.starts) {
                Nfa.Node<E> n = nfa.node(start);
                if (holds(n.condition(), noEvents)) {
                    long id = currentEventId();
                    created.add(new Run(newStep(id, n.variable(), -1), start, id, time, n.allEdges(), true));
                }
            }
            long limit = emitMatches(created, listener);
            List<Run> next = new ArrayList<>(survivors.size() + created.size());
            keepOrRelease(survivors, limit, next);
            keepOrRelease(created, limit, next);
            if (currentId >= 0 && currentRefs > 0) {
                events.put(currentId, new BufferedEvent<>(event, time, currentRefs));
            }
            if (!(stored.isEmpty() && next.isEmpty())) {
                store(next);                    // an event that started and continued nothing leaves the state as it was
            }
            return stored.isEmpty() && !next.isEmpty();
        } finally {
            currentId = -1;
            current = null;
        }
    }

    /**
     * Ends the partial matches whose {@code within} has passed at {@code time} (first event's time + within &le; time):
     * those that had not become matches go to {@link Listener#onTimeout} with what they had matched, at the time their
     * {@code within} ended. Does nothing without {@code within}.
     */
    void expire(long time, Listener<E> listener) throws Exception {
        if (nfa.within < 0) {
            return;
        }
        List<Run> all = load();
        List<Run> keep = expired(all, time, listener);
        if (keep.size() != all.size()) {
            store(keep);
        }
    }

    /** The earliest start time of the current key's partial matches, {@code Long.MAX_VALUE} when it has none. */
    long earliestStart() {
        long min = Long.MAX_VALUE;
        for (Run r : load()) {
            min = Math.min(min, r.startTime());
        }
        return min;
    }

    /** Times out and releases the runs of {@code all} whose within has passed at {@code time}; returns the others. */
    private List<Run> expired(List<Run> all, long time, Listener<E> listener) throws Exception {
        if (nfa.within < 0 || all.isEmpty()) {
            return all;
        }
        List<Run> keep = new ArrayList<>(all.size());
        List<Run> gone = null;
        for (Run r : all) {
            if (r.startTime() + nfa.within <= time) {
                if (gone == null) {
                    gone = new ArrayList<>();
                }
                gone.add(r);
            } else {
                keep.add(r);
            }
        }
        if (gone == null) {
            return all;
        }
        gone.sort(Comparator.comparingLong(Run::startEvent).thenComparingLong(Run::step));
        for (Run r : gone) {
            if (!nfa.node(r.node()).accepting()) {
                listener.onTimeout(toMap(chain(r.step())), r.startTime() + nfa.within);
            }
            release(r.step());
        }
        return keep;
    }

    private void step(Run r, List<Run> survivors, List<Run> created) throws Exception {
        Nfa.Node<E> node = nfa.node(r.node());
        List<Nfa.Edge<E>> edges = node.edges();
        IterativeCondition.Context<E> ctx = nfa.iterative ? new RunContext(r.step()) : noEvents;
        long alive = r.alive();
        long dead = 0;
        long takes = 0;
        boolean blocked = false;
        for (int pass = node.greedy() ? 0 : 1; pass < 2; pass++) {
            for (long bits = alive; bits != 0; bits &= bits - 1) {
                int i = Long.numberOfTrailingZeros(bits);
                long bit = 1L << i;
                Nfa.Edge<E> edge = edges.get(i);
                if (node.greedy() && (pass == 0) != edge.repeat()) {
                    continue;
                }
                if (r.fresh() && anyHolds(edge.notNext(), ctx)) {
                    dead |= bit;
                    continue;
                }
                if (edge.until() != null && holds(edge.until(), ctx)) {
                    dead |= bit;
                    continue;
                }
                boolean take = holds(nfa.node(edge.target()).condition(), ctx) && !(blocked && edge.exitsGreedy());
                if (take) {
                    takes |= bit;
                    blocked |= node.greedy() && edge.repeat();
                    if (edge.contiguity() != Contiguity.ANY) {
                        dead |= bit;
                    }
                } else if (edge.contiguity() == Contiguity.STRICT) {
                    dead |= bit;
                }
                if ((dead & bit) == 0 && anyHolds(edge.notFollowedBy(), ctx)) {
                    dead |= bit;
                }
            }
        }
        for (long bits = takes; bits != 0; bits &= bits - 1) {
            int target = edges.get(Long.numberOfTrailingZeros(bits)).target();
            Nfa.Node<E> t = nfa.node(target);
            created.add(new Run(newStep(currentEventId(), t.variable(), r.step()), target, r.startEvent(), r.startTime(), t.allEdges(), true));
        }
        alive &= ~dead & ~node.strictEdges();
        if (alive != 0) {
            survivors.add(new Run(r.step(), r.node(), r.startEvent(), r.startTime(), alive, false));
        } else {
            release(r.step());
        }
    }

    /** Emits the matches completed by the current event in their order; returns the start below which runs are discarded. */
    private long emitMatches(List<Run> created, Listener<E> listener) throws Exception {
        List<Chain> matches = new ArrayList<>();
        for (Run r : created) {
            if (nfa.node(r.node()).accepting()) {
                matches.add(chain(r.step()));
            }
        }
        if (matches.isEmpty()) {
            return Long.MIN_VALUE;
        }
        matches.sort(Chain.ORDER);
        long limit = Long.MIN_VALUE;
        Chain previous = null;
        for (Chain m : matches) {
            if (previous != null && Chain.ORDER.compare(previous, m) == 0) {
                continue;                       // the same events for the same variables, reached another way
            }
            previous = m;
            if (m.events[0] < limit) {
                continue;
            }
            listener.onMatch(toMap(m), currentTime);
            limit = Math.max(limit, pruneLimit(m));
        }
        return limit;
    }

    private long pruneLimit(Chain m) {
        return switch (nfa.skip) {
            case NO_SKIP -> Long.MIN_VALUE;
            case SKIP_TO_NEXT -> m.events[0] + 1;
            case SKIP_PAST_LAST_EVENT -> m.events[m.events.length - 1] + 1;
            case SKIP_TO_FIRST -> {
                for (int i = 0; i < m.events.length; i++) {
                    if (m.variables[i] == nfa.skipVariable) {
                        yield m.events[i];
                    }
                }
                yield Long.MIN_VALUE;
            }
            case SKIP_TO_LAST -> {
                for (int i = m.events.length - 1; i >= 0; i--) {
                    if (m.variables[i] == nfa.skipVariable) {
                        yield m.events[i];
                    }
                }
                yield Long.MIN_VALUE;
            }
        };
    }

    private void keepOrRelease(List<Run> candidates, long limit, List<Run> next) {
        for (Run r : candidates) {
            if (r.startEvent() < limit || r.alive() == 0) {
                release(r.step());
            } else {
                next.add(r);
            }
        }
    }

    private boolean holds(Condition<E> condition, IterativeCondition.Context<E> ctx) throws Exception {
        return condition == null || condition.function().filter(current, ctx);
    }

    private boolean anyHolds(List<Condition<E>> conditions, IterativeCondition.Context<E> ctx) throws Exception {
        for (int i = 0; i < conditions.size(); i++) {
            if (conditions.get(i).function().filter(current, ctx)) {
                return true;
            }
        }
        return false;
    }

    // ---- the shared buffer

    private long currentEventId() {
        if (currentId < 0) {
            currentId = nextEvent++;
        }
        return currentId;
    }

    /** A step for the current event; it starts with one reference, the run it is made for. */
    private long newStep(long event, int variable, long previous) {
        long id = nextStep++;
        steps.put(id, new Step(event, variable, previous, 1));
        if (previous >= 0) {
            Step p = steps.get(previous);
            steps.put(previous, new Step(p.event(), p.variable(), p.previous(), p.refs() + 1));
        }
        currentRefs++;                      // steps are only made for the current event
        return id;
    }

    /** Drops one reference to a step; a step left without any goes, with its reference to its event and its previous step. */
    private void release(long id) {
        while (id >= 0) {
            Step s = steps.get(id);
            if (s.refs() > 1) {
                steps.put(id, new Step(s.event(), s.variable(), s.previous(), s.refs() - 1));
                return;
            }
            steps.remove(id);
            if (s.event() == currentId) {
                currentRefs--;
            } else {
                BufferedEvent<E> b = events.get(s.event());
                if (b.refs() <= 1) {
                    events.remove(s.event());
                } else {
                    events.put(s.event(), new BufferedEvent<>(b.event(), b.timestamp(), b.refs() - 1));
                }
            }
            id = s.previous();
        }
    }

    private E eventValue(long id) {
        return id == currentId ? current : events.get(id).event();
    }

    private List<Run> load() {
        Runs r = runs.value();
        if (r == null) {
            nextEvent = 0;
            nextStep = 0;
            return List.of();
        }
        nextEvent = r.nextEvent();
        nextStep = r.nextStep();
        return r.runs();
    }

    private void store(List<Run> next) {
        if (next.isEmpty()) {
            runs.clear();                    // no step or event is referenced any more: ids may start again
        } else {
            runs.update(new Runs(nextEvent, nextStep, next));
        }
    }

    /** The events and variables of a partial match, first to last. */
    private Chain chain(long step) {
        int n = 0;
        for (long id = step; id >= 0; id = steps.get(id).previous()) {
            n++;
        }
        long[] ev = new long[n];
        int[] vars = new int[n];
        long id = step;
        for (int i = n - 1; i >= 0; i--) {
            Step s = steps.get(id);
            ev[i] = s.event();
            vars[i] = s.variable();
            id = s.previous();
        }
        return new Chain(ev, vars);
    }

    private Map<String, List<E>> toMap(Chain c) {
        List<List<E>> byVariable = new ArrayList<>(nfa.variables.size());
        for (int i = 0; i < nfa.variables.size(); i++) {
            byVariable.add(null);
        }
        for (int i = 0; i < c.events.length; i++) {
            List<E> l = byVariable.get(c.variables[i]);
            if (l == null) {
                l = new ArrayList<>();
                byVariable.set(c.variables[i], l);
            }
            l.add(eventValue(c.events[i]));
        }
        Map<String, List<E>> m = new LinkedHashMap<>();
        for (int i = 0; i < byVariable.size(); i++) {
            if (byVariable.get(i) != null) {
                m.put(nfa.variables.get(i), List.copyOf(byVariable.get(i)));
            }
        }
        return m;
    }

    /** A partial match as event ids and variables; ordered by first event, then events, then variables. */
    private record Chain(long[] events, int[] variables) {
        static final Comparator<Chain> ORDER = (a, b) -> {
            int c = Arrays.compare(a.events, b.events);
            return c != 0 ? c : Arrays.compare(a.variables, b.variables);
        };
    }

    private final IterativeCondition.Context<E> noEvents = new IterativeCondition.Context<>() {
        @Override
        public List<E> eventsOf(String name) {
            return List.of();
        }

        @Override
        public long timestamp() {
            return currentTime;
        }
    };

    /** What an iterative condition sees of one partial match: read from the shared buffer on first use. */
    private final class RunContext implements IterativeCondition.Context<E> {
        private final long step;
        private Map<String, List<E>> matched;

        RunContext(long step) {
            this.step = step;
        }

        @Override
        public List<E> eventsOf(String name) {
            if (matched == null) {
                matched = toMap(chain(step));
            }
            List<E> l = matched.get(name);
            return l == null ? List.of() : l;
        }

        @Override
        public long timestamp() {
            return currentTime;
        }
    }
}
