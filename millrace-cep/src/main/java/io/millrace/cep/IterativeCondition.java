package io.millrace.cep;

import java.io.Serializable;

/**
 * A condition that sees, besides the event, the events the partial match has already taken: to compare with the
 * previous event of a variable, or to keep a sum or an average below a limit. The events of the partial match are
 * read from the shared buffer in keyed state when {@link Context#eventsOf} is called, so a condition that does not
 * need them should be a {@link SimpleCondition}. Same thread and purity rules as {@link SimpleCondition}.
 */
@FunctionalInterface
public interface IterativeCondition<E> extends Serializable {
    boolean filter(E event, Context<E> context) throws Exception;

    /** What a condition sees of the partial match it is evaluated for. Valid only during the call. */
    interface Context<E> {
        /**
         * The events the partial match has taken for the variable {@code name} so far, in time order; empty when it
         * has taken none (or the name is not a variable of the pattern). The event being judged is not among them.
         */
        java.util.List<E> eventsOf(String name);

        /** The timestamp of the event being judged (event time, or processing time when matching in processing time). */
        long timestamp();
    }
}
