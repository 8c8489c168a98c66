package io.millrace.sim;

/**
 * Generated events waiting for their emission time, taken out in the order of (emission time, global
 * slot). Events are added in increasing slot order. Used by one thread.
 */
interface EmissionQueue {
    boolean isEmpty();

    /** The emission time of the first event; the queue must not be empty. */
    long firstEmitAt();

    /** The slot of the first event; the queue must not be empty. */
    long firstSlot();

    /** Adds an event; {@code slot} is greater than that of every event added before. */
    void add(long emitAt, long slot, FactoryEvent event);

    /** Removes and returns the first event; the queue must not be empty. */
    FactoryEvent poll();

    /** Promises that no event, queued or to come, is emitted before {@code time}. */
    void advanceTo(long time);

    void clear();
}
