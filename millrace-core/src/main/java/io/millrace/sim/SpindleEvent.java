package io.millrace.sim;

/**
 * The spindle of a machine started ({@link SpindleState#RUNNING}) or stopped. A machine reports its state
 * in its first slot, then on every change. A stopped machine reports nothing else until it runs again,
 * so a session window over a machine's events is one run cycle.
 */
public record SpindleEvent(String machineId, SpindleState state, long eventTime, long seq) implements FactoryEvent {}
