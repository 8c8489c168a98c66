package io.millrace.cep;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A pattern over the events of one key: a sequence of named elements, each with a condition, a quantifier and its
 * contiguity to the element before it; groups of elements (a {@code Pattern} as a step) and negations
 * ({@link #notNext}, {@link #notFollowedBy}) between them; {@link #within} for the whole match.
 *
 * <pre>
 *   Pattern.&lt;SensorReading&gt;begin("spike").where(r -&gt; r.value() &gt; 85)
 *          .followedBy("drop").where(r -&gt; r.value() &lt; 4)
 *          .within(Duration.ofSeconds(30));
 * </pre>
 *
 * Patterns are immutable: each method returns a new pattern and leaves this one as it was, so a pattern may be
 * reused and extended in several ways. Methods that shape an element ({@link #where}, {@link #times}, {@link #optional},
 * ...) apply to the last element added. Errors (a name used twice, a quantifier on a negation, {@code greedy} without a
 * loop) are reported when the method is called, naming the element. See docs/cep.md for the semantics.
 */
public final class Pattern<E> implements Serializable {
    private final List<Element<E>> elements;
    private final Duration within;
    private final AfterMatchSkipStrategy skip;

    private Pattern(List<Element<E>> elements, Duration within, AfterMatchSkipStrategy skip) {
        this.elements = List.copyOf(elements);
        this.within = within;
        this.skip = skip;
    }

    /** A pattern whose first element is the variable {@code name}; matches may start at every event. */
    public static <E> Pattern<E> begin(String name) {
        return begin(name, AfterMatchSkipStrategy.noSkip());
    }

    public static <E> Pattern<E> begin(String name, AfterMatchSkipStrategy skip) {
        return new Pattern<E>(List.of(), null, Objects.requireNonNull(skip, "skip strategy")).add(Element.atom(checkName(name), null));
    }

    /** A pattern whose first element is the group {@code group}. */
    public static <E> Pattern<E> begin(Pattern<E> group) {
        return begin(group, AfterMatchSkipStrategy.noSkip());
    }

    public static <E> Pattern<E> begin(Pattern<E> group, AfterMatchSkipStrategy skip) {
        return new Pattern<E>(List.of(), null, Objects.requireNonNull(skip, "skip strategy")).add(Element.group(checkGroup(group), null));
    }

    /** Adds {@code name}, which must take the event right after the previous element's last (strict contiguity). */
    public Pattern<E> next(String name) {
        return add(Element.atom(checkName(name), Contiguity.STRICT));
    }

    /** Adds {@code name}, which takes the first later event it accepts; events it does not accept are skipped (relaxed contiguity). */
    public Pattern<E> followedBy(String name) {
        return add(Element.atom(checkName(name), Contiguity.RELAXED));
    }

    /** Adds {@code name}, which takes any later event it accepts, each in a partial match of its own (non-deterministic relaxed contiguity). */
    public Pattern<E> followedByAny(String name) {
        return add(Element.atom(checkName(name), Contiguity.ANY));
    }

    /** Adds a group that must start right after the previous element's last event. */
    public Pattern<E> next(Pattern<E> group) {
        return add(Element.group(checkGroup(group), Contiguity.STRICT));
    }

    public Pattern<E> followedBy(Pattern<E> group) {
        return add(Element.group(checkGroup(group), Contiguity.RELAXED));
    }

    public Pattern<E> followedByAny(Pattern<E> group) {
        return add(Element.group(checkGroup(group), Contiguity.ANY));
    }

    /** The event right after the previous element's last must not satisfy the condition given next with {@link #where}. */
    public Pattern<E> notNext(String name) {
        return add(Element.negation(checkName(name), Element.Kind.NOT_NEXT));
    }

    /**
     * No event between the previous element's last event and the next element's first may satisfy the condition given
     * next with {@link #where}. A negation cannot end a pattern.
     */
    public Pattern<E> notFollowedBy(String name) {
        return add(Element.negation(checkName(name), Element.Kind.NOT_FOLLOWED_BY));
    }

    /** The last element's condition becomes its condition and {@code condition}. */
    public Pattern<E> where(SimpleCondition<E> condition) {
        return where(Condition.simple(condition));
    }

    /** As {@link #where(SimpleCondition)}, with a condition that sees the events matched so far. */
    public Pattern<E> where(IterativeCondition<E> condition) {
        return where(Condition.iterative(condition));
    }

    /** The last element's condition becomes its condition or {@code condition}. */
    public Pattern<E> or(SimpleCondition<E> condition) {
        return or(Condition.simple(condition));
    }

    public Pattern<E> or(IterativeCondition<E> condition) {
        return or(Condition.iterative(condition));
    }

    private Pattern<E> where(Condition<E> condition) {
        Element<E> last = conditionTarget("where");
        return replaceLast(last.withCondition(last.condition == null ? condition : Condition.and(last.condition, condition)));
    }

    private Pattern<E> or(Condition<E> condition) {
        Element<E> last = conditionTarget("or");
        return replaceLast(last.withCondition(last.condition == null ? condition : Condition.or(last.condition, condition)));
    }

    /** Exactly {@code n} events (n &ge; 1). */
    public Pattern<E> times(int n) {
        return times(n, n);
    }

    /** From {@code min} to {@code max} events (1 &le; min &le; max; use {@link #optional} to allow none). */
    public Pattern<E> times(int min, int max) {
        if (min < 1 || max < min) {
            throw new IllegalArgumentException("times(" + min + ", " + max + ") on '" + lastName() + "': needs 1 <= min <= max");
        }
        return quantify("times", min, max);
    }

    /** {@code n} or more events (n &ge; 1). */
    public Pattern<E> timesOrMore(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("timesOrMore(" + n + ") on '" + lastName() + "': needs n >= 1");
        }
        return quantify("timesOrMore", n, Element.UNBOUNDED);
    }

    /** One or more events. */
    public Pattern<E> oneOrMore() {
        return timesOrMore(1);
    }

    private Pattern<E> quantify(String what, int min, int max) {
        Element<E> last = shapeTarget(what);
        if (last.quantified) {
            throw new IllegalStateException(what + "() on '" + lastName() + "': the element already has a quantifier");
        }
        return replaceLast(last.withQuantifier(min, max, true));
    }

    /** The last element may also match no event at all: {@code times(2).optional()} takes none or two. */
    public Pattern<E> optional() {
        return replaceLast(shapeTarget("optional").withOptional());
    }

    /** The repetitions of the last (looping) element must be contiguous: each the very next event. */
    public Pattern<E> consecutive() {
        return replaceLast(loopTarget("consecutive").withInner(Contiguity.STRICT));
    }

    /** The repetitions of the last (looping) element may be any later events it accepts, in every combination. */
    public Pattern<E> allowCombinations() {
        return replaceLast(loopTarget("allowCombinations").withInner(Contiguity.ANY));
    }

    /**
     * The last (looping) element takes as many events as it can: an event it could take as its next repetition is
     * not taken by what follows it.
     */
    public Pattern<E> greedy() {
        Element<E> last = loopTarget("greedy");
        if (last.kind != Element.Kind.ATOM) {
            throw new IllegalStateException("greedy() on a group: only a named element can be greedy");
        }
        return replaceLast(last.withGreedy());
    }

    /** Ends the repetitions of the last (unbounded) element at the first event that satisfies {@code condition}. */
    public Pattern<E> until(SimpleCondition<E> condition) {
        return until(Condition.simple(condition));
    }

    public Pattern<E> until(IterativeCondition<E> condition) {
        return until(Condition.iterative(condition));
    }

    private Pattern<E> until(Condition<E> condition) {
        Element<E> last = loopTarget("until");
        if (last.kind != Element.Kind.ATOM || last.max != Element.UNBOUNDED) {
            throw new IllegalStateException("until() on '" + lastName() + "': only oneOrMore() or timesOrMore(n) of a named element can have an until condition");
        }
        return replaceLast(last.withUntil(last.until == null ? condition : Condition.or(last.until, condition)));
    }

    /** A match must end before {@code duration} has passed since its first event: every event's time is below first + duration. */
    public Pattern<E> within(Duration duration) {
        Objects.requireNonNull(duration, "within");
        if (duration.isNegative() || duration.isZero() || duration.toMillis() < 1) {
            throw new IllegalArgumentException("within(" + duration + "): must be at least 1 ms");
        }
        return new Pattern<>(elements, duration, skip);
    }

    /** The duration of {@link #within}, or null. */
    public Duration within() {
        return within;
    }

    public AfterMatchSkipStrategy skipStrategy() {
        return skip;
    }

    /** The variable names of the pattern (negations included), in the order they were added, groups depth first. */
    public List<String> variableNames() {
        List<String> names = new ArrayList<>();
        collectNames(names);
        return names;
    }

    List<Element<E>> elements() {
        return elements;
    }

    private void collectNames(List<String> names) {
        for (Element<E> e : elements) {
            if (e.kind == Element.Kind.GROUP) {
                e.group.collectNames(names);
            } else {
                names.add(e.name);
            }
        }
    }

    private Pattern<E> add(Element<E> element) {
        Set<String> names = new HashSet<>(variableNames());
        List<String> added = new ArrayList<>();
        if (element.kind == Element.Kind.GROUP) {
            element.group.collectNames(added);
        } else {
            added.add(element.name);
        }
        for (String n : added) {
            if (!names.add(n)) {
                throw new IllegalArgumentException("pattern variable '" + n + "' is used twice: names must be unique in a pattern");
            }
        }
        List<Element<E>> next = new ArrayList<>(elements);
        next.add(element);
        return new Pattern<>(next, within, skip);
    }

    private Pattern<E> replaceLast(Element<E> element) {
        List<Element<E>> next = new ArrayList<>(elements);
        next.set(next.size() - 1, element);
        return new Pattern<>(next, within, skip);
    }

    private Element<E> conditionTarget(String what) {
        Element<E> last = elements.get(elements.size() - 1);
        if (last.kind == Element.Kind.GROUP) {
            throw new IllegalStateException(what + "() after a group: conditions belong to the named elements inside the group");
        }
        return last;
    }

    private Element<E> shapeTarget(String what) {
        Element<E> last = elements.get(elements.size() - 1);
        if (last.kind.negation()) {
            throw new IllegalStateException(what + "() on the negation '" + last.name + "': notNext and notFollowedBy take no quantifier");
        }
        return last;
    }

    private Element<E> loopTarget(String what) {
        Element<E> last = shapeTarget(what);
        if (!last.quantified || last.max == 1) {
            throw new IllegalStateException(what + "() on '" + lastName() + "': it applies to a looping element (times, timesOrMore, oneOrMore)");
        }
        return last;
    }

    private String lastName() {
        Element<E> last = elements.get(elements.size() - 1);
        return last.kind == Element.Kind.GROUP ? "group " + last.group.variableNames() : last.name;
    }

    private static String checkName(String name) {
        Objects.requireNonNull(name, "pattern variable name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("pattern variable names must not be blank");
        }
        return name;
    }

    private static <E> Pattern<E> checkGroup(Pattern<E> group) {
        Objects.requireNonNull(group, "group");
        if (group.within != null) {
            throw new IllegalArgumentException("group " + group.variableNames() + " has within(): within applies to the whole pattern, set it on the outer one");
        }
        if (!group.skip.equals(AfterMatchSkipStrategy.noSkip())) {
            throw new IllegalArgumentException("group " + group.variableNames() + " has a skip strategy: it applies to the whole pattern, give it to the outer begin()");
        }
        return group;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (Element<E> e : elements) {
            b.append(b.length() == 0 ? "" : " ").append(e);
        }
        if (within != null) {
            b.append(" within ").append(within);
        }
        if (skip.kind() != AfterMatchSkipStrategy.Kind.NO_SKIP) {
            b.append(" skip ").append(skip);
        }
        return b.toString();
    }

    /** One element of a pattern's sequence. Immutable. */
    static final class Element<E> implements Serializable {
        static final int UNBOUNDED = Integer.MAX_VALUE;

        enum Kind {
            ATOM,
            GROUP,
            NOT_NEXT,
            NOT_FOLLOWED_BY;

            boolean negation() {
                return this == NOT_NEXT || this == NOT_FOLLOWED_BY;
            }
        }

        final Kind kind;
        final String name;                 // ATOM and negations
        final Pattern<E> group;            // GROUP
        final Contiguity contiguity;       // to the element before; null for the first
        final Condition<E> condition;      // null: every event
        final int min;
        final int max;
        final boolean quantified;
        final Contiguity inner;            // between repetitions
        final boolean greedy;
        final Condition<E> until;
        /** Whether the element may also take no event at all (then, or min to max events). */
        final boolean optional;

        private Element(Kind kind, String name, Pattern<E> group, Contiguity contiguity, Condition<E> condition, int min, int max,
                boolean quantified, Contiguity inner, boolean greedy, Condition<E> until, boolean optional) {
            this.kind = kind;
            this.name = name;
            this.group = group;
            this.contiguity = contiguity;
            this.condition = condition;
            this.min = min;
            this.max = max;
            this.quantified = quantified;
            this.inner = inner;
            this.greedy = greedy;
            this.until = until;
            this.optional = optional;
        }

        static <E> Element<E> atom(String name, Contiguity contiguity) {
            return new Element<>(Kind.ATOM, name, null, contiguity, null, 1, 1, false, Contiguity.RELAXED, false, null, false);
        }

        static <E> Element<E> group(Pattern<E> group, Contiguity contiguity) {
            return new Element<>(Kind.GROUP, null, group, contiguity, null, 1, 1, false, Contiguity.RELAXED, false, null, false);
        }

        static <E> Element<E> negation(String name, Kind kind) {
            return new Element<>(kind, name, null, kind == Kind.NOT_NEXT ? Contiguity.STRICT : Contiguity.RELAXED, null, 1, 1, false,
                    Contiguity.RELAXED, false, null, false);
        }

        Element<E> withCondition(Condition<E> c) {
            return new Element<>(kind, name, group, contiguity, c, min, max, quantified, inner, greedy, until, optional);
        }

        Element<E> withQuantifier(int newMin, int newMax, boolean nowQuantified) {
            return new Element<>(kind, name, group, contiguity, condition, newMin, newMax, nowQuantified, inner, greedy, until, optional);
        }

        Element<E> withInner(Contiguity c) {
            return new Element<>(kind, name, group, contiguity, condition, min, max, quantified, c, greedy, until, optional);
        }

        Element<E> withGreedy() {
            return new Element<>(kind, name, group, contiguity, condition, min, max, quantified, inner, true, until, optional);
        }

        Element<E> withUntil(Condition<E> c) {
            return new Element<>(kind, name, group, contiguity, condition, min, max, quantified, inner, greedy, c, optional);
        }

        Element<E> withOptional() {
            return new Element<>(kind, name, group, contiguity, condition, min, max, quantified, inner, greedy, until, true);
        }

        boolean loops() {
            return max > 1;
        }

        @Override
        public String toString() {
            String prefix = contiguity == null ? "" : switch (kind) {
                case NOT_NEXT -> "notNext ";
                case NOT_FOLLOWED_BY -> "notFollowedBy ";
                default -> switch (contiguity) {
                    case STRICT -> "next ";
                    case RELAXED -> "followedBy ";
                    case ANY -> "followedByAny ";
                };
            };
            String body = kind == Kind.GROUP ? "(" + group + ")" : name;
            String q = optional ? "?" : "";
            if (min != 1 || max != 1) {
                q += "{" + min + "," + (max == UNBOUNDED ? "" : max) + "}";
                if (max > 1) {
                    q += switch (inner) {
                        case STRICT -> " consecutive";
                        case ANY -> " combinations";
                        case RELAXED -> "";
                    };
                }
            }
            return prefix + body + q + (greedy ? " greedy" : "") + (until != null ? " until" : "");
        }
    }
}
