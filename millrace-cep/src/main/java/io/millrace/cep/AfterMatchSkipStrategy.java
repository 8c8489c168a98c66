package io.millrace.cep;

import java.io.Serializable;
import java.util.Objects;

/**
 * What happens to the other partial matches once a match is emitted. Matches that end at the same event are
 * emitted in the order of their first event (then of their events' positions), and each one emitted discards, from
 * the partial matches and from the matches not yet emitted, those that started:
 *
 * <table>
 *   <caption>skip strategies</caption>
 *   <tr><th>strategy</th><th>discards partial matches that started</th></tr>
 *   <tr><td>{@link #noSkip()} (the default)</td><td>none: every match is emitted</td></tr>
 *   <tr><td>{@link #skipToNext()}</td><td>at or before the match's first event</td></tr>
 *   <tr><td>{@link #skipPastLastEvent()}</td><td>at or before the match's last event: no event is in two matches</td></tr>
 *   <tr><td>{@link #skipToFirst(String) skipToFirst(v)}</td><td>before the first event of variable {@code v} in the match</td></tr>
 *   <tr><td>{@link #skipToLast(String) skipToLast(v)}</td><td>before the last event of variable {@code v} in the match</td></tr>
 * </table>
 *
 * A match without events of {@code v} discards nothing under {@code skipToFirst(v)} and {@code skipToLast(v)}.
 */
public final class AfterMatchSkipStrategy implements Serializable {
    /** The kinds of strategy. */
    public enum Kind {
        NO_SKIP,
        SKIP_TO_NEXT,
        SKIP_PAST_LAST_EVENT,
        SKIP_TO_FIRST,
        SKIP_TO_LAST
    }

    private static final AfterMatchSkipStrategy NO_SKIP = new AfterMatchSkipStrategy(Kind.NO_SKIP, null);
    private static final AfterMatchSkipStrategy SKIP_TO_NEXT = new AfterMatchSkipStrategy(Kind.SKIP_TO_NEXT, null);
    private static final AfterMatchSkipStrategy SKIP_PAST_LAST = new AfterMatchSkipStrategy(Kind.SKIP_PAST_LAST_EVENT, null);

    private final Kind kind;
    private final String variable;

    private AfterMatchSkipStrategy(Kind kind, String variable) {
        this.kind = kind;
        this.variable = variable;
    }

    public static AfterMatchSkipStrategy noSkip() {
        return NO_SKIP;
    }

    public static AfterMatchSkipStrategy skipToNext() {
        return SKIP_TO_NEXT;
    }

    public static AfterMatchSkipStrategy skipPastLastEvent() {
        return SKIP_PAST_LAST;
    }

    public static AfterMatchSkipStrategy skipToFirst(String variable) {
        return new AfterMatchSkipStrategy(Kind.SKIP_TO_FIRST, Objects.requireNonNull(variable, "variable"));
    }

    public static AfterMatchSkipStrategy skipToLast(String variable) {
        return new AfterMatchSkipStrategy(Kind.SKIP_TO_LAST, Objects.requireNonNull(variable, "variable"));
    }

    public Kind kind() {
        return kind;
    }

    /** The variable of {@code skipToFirst}/{@code skipToLast}, else null. */
    public String variable() {
        return variable;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AfterMatchSkipStrategy s && s.kind == kind && Objects.equals(s.variable, variable);
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + Objects.hashCode(variable);
    }

    @Override
    public String toString() {
        return variable == null ? kind.name() : kind.name() + "(" + variable + ")";
    }
}
