package io.millrace.sim;

/**
 * An injected fault, the simulator's ground truth: the machine's temperature readings are above normal
 * in {@code [spikeStart, spikeEnd)} and its pressure readings below normal in {@code [dropStart, dropEnd)};
 * the drop starts 5–20 s after the spike (so within 30 s). Times are event times in epoch milliseconds.
 */
public record Anomaly(String machineId, long spikeStart, long spikeEnd, long dropStart, long dropEnd)
        implements java.io.Serializable {}
