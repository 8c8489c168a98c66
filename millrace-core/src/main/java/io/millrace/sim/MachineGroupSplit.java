package io.millrace.sim;

import io.millrace.api.source.SourceSplit;

/**
 * A group of machines {@code [firstMachine, firstMachine + machineCount)} read by one reader, with its
 * position: the number of events emitted and the emission key (emission time, global slot) of the last
 * one ({@code lastSlot} is -1 before the first). Events are emitted in the order of that key, so the
 * position says exactly which events were emitted. {@code quota} is the number of events the split emits
 * before it ends, or -1 when not bounded by count.
 */
public record MachineGroupSplit(
        String splitId, int firstMachine, int machineCount, long quota, long emitted, long lastEmitTime, long lastSlot)
        implements SourceSplit {

    public MachineGroupSplit {
        if (machineCount < 1 || firstMachine < 0) {
            throw new IllegalArgumentException("a machine group needs machines, was " + firstMachine + "+" + machineCount);
        }
    }

    /** The same group at a new position. */
    MachineGroupSplit at(long newEmitted, long newLastEmitTime, long newLastSlot) {
        return new MachineGroupSplit(splitId, firstMachine, machineCount, quota, newEmitted, newLastEmitTime, newLastSlot);
    }
}
