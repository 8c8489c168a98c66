package io.millrace.cep;

import java.io.Serializable;

/**
 * A condition on one event alone: whether the event may be taken by the pattern variable it is given to (with
 * {@link Pattern#where(SimpleCondition)}), or, for {@code notNext}/{@code notFollowedBy}/{@code until}, whether it
 * stops the partial match. Called on the operator's task thread, possibly several times for the same event; it
 * must not change the event and should not keep state of its own. Part of the job's plan, so it must be
 * serializable (a lambda is).
 */
@FunctionalInterface
public interface SimpleCondition<E> extends Serializable {
    boolean filter(E event) throws Exception;
}
