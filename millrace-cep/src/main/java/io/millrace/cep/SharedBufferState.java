package io.millrace.cep;

import java.util.List;

/** The records the engine keeps in keyed state. Immutable: the engine writes a new one for every change. */
final class SharedBufferState {
    private SharedBufferState() {}

    /**
     * An event of the shared buffer, stored once however many partial matches took it; {@code refs} counts the
     * steps that point at it, and it is removed when the last goes.
     */
    record BufferedEvent<E>(E event, long timestamp, int refs) {}

    /**
     * One event taken by one variable, after the step {@code previous} (-1 for a match's first event). Partial
     * matches that share a beginning share its steps; {@code refs} counts the runs and later steps that point at
     * this one.
     */
    record Step(long event, int variable, long previous, int refs) {}

    /**
     * A partial match: its last step, the NFA node that took it, its first event (id and time), which of the node's
     * edges can still take an event (a bit per edge), and whether it has seen no event since its last step.
     */
    record Run(long step, int node, long startEvent, long startTime, long alive, boolean fresh) {}

    /** The partial matches of one key and the next ids of its shared buffer. */
    record Runs(long nextEvent, long nextStep, List<Run> runs) {}
}
