package io.millrace.api.plan;

/** How records travel along an edge from the subtasks of one operator to those of the next. */
public enum Partitioning {
    /** Not chosen by the user: FORWARD when both sides have the same parallelism, else REBALANCE. */
    DEFAULT,
    /** Subtask i to subtask i; chained into one task when possible. */
    FORWARD,
    /** By key group of the record's key; the receiving operator is keyed. */
    HASH,
    /** Round robin over all receivers, in batches. */
    REBALANCE,
    /** Every record to every receiver. */
    BROADCAST
}
