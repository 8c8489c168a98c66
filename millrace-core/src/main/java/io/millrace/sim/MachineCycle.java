package io.millrace.sim;

/**
 * The schedule of one machine in one run cycle, a pure function of the seed, the machine and the cycle
 * number: stopped in {@code [start, runStart)}, running in {@code [runStart, end)}, silent during an
 * optional drop-out inside the run, and with an optional anomaly inside the run (never in a cycle with a
 * drop-out). Each machine's cycles are shifted by a machine-specific phase so that machines do not stop
 * together.
 *
 * <p>A mutable memo: {@link #moveTo} recomputes only when the time leaves the current cycle. Used by one
 * thread.
 */
final class MachineCycle {
    /** Nothing happens this close to the edges of the run phase, in ms. */
    static final long MARGIN = 1_000;
    static final long SPIKE_LENGTH = 10_000;
    static final long DROP_LENGTH = 10_000;
    static final long DROP_DELAY_MIN = 5_000;
    static final long DROP_DELAY_SPREAD = 15_000;
    /** Spike start to the latest drop end. */
    static final long ANOMALY_SPAN = DROP_DELAY_MIN + DROP_DELAY_SPREAD + DROP_LENGTH;

    private static final int TAG_PHASE = 1;
    private static final int TAG_STOP = 2;
    private static final int TAG_DROPOUT = 3;
    private static final int TAG_DROPOUT_LENGTH = 4;
    private static final int TAG_DROPOUT_AT = 5;
    private static final int TAG_ANOMALY = 6;
    private static final int TAG_ANOMALY_AT = 7;
    private static final int TAG_DROP_DELAY = 8;

    /** What a machine does at an instant. */
    enum Phase {
        STOPPED,
        RUNNING,
        SILENT
    }

    private final SimulatorConfig config;
    private final int machine;
    private final long origin;

    private long cycle = Long.MIN_VALUE;
    long start;
    long runStart;
    long end;
    /** Drop-out interval; empty (dropoutStart == dropoutEnd) when none. */
    long dropoutStart;
    long dropoutEnd;
    /** Whether this cycle has an anomaly; spikeStart and dropStart are valid only then. */
    boolean hasAnomaly;
    long spikeStart;
    long dropStart;

    MachineCycle(SimulatorConfig config, int machine) {
        this.config = config;
        this.machine = machine;
        long offset = (long) (SeededHash.unit(config.seed(), TAG_PHASE, machine, 0) * config.runCycleMillis());
        this.origin = config.startTime() - offset;
    }

    /** Positions the memo on the cycle containing {@code time}. */
    MachineCycle moveTo(long time) {
        if (time >= start && time < end && cycle != Long.MIN_VALUE) {
            return this;
        }
        long c = config.runCycleMillis();
        cycle = Math.floorDiv(time - origin, c);
        start = origin + cycle * c;
        end = start + c;
        long seed = config.seed();
        runStart = start + (long) (c * (0.1 + 0.2 * SeededHash.unit(seed, TAG_STOP, machine, cycle)));
        long runLength = end - runStart;
        dropoutStart = dropoutEnd = runStart;
        if (SeededHash.unit(seed, TAG_DROPOUT, machine, cycle) < config.dropoutProbability()) {
            long max = config.dropoutMaxLengthMillis();
            long length = max / 2 + (long) ((max - max / 2) * SeededHash.unit(seed, TAG_DROPOUT_LENGTH, machine, cycle));
            long room = Math.max(0, runLength - length - 2 * MARGIN);
            dropoutStart = runStart + MARGIN + (long) (room * SeededHash.unit(seed, TAG_DROPOUT_AT, machine, cycle));
            dropoutEnd = Math.min(dropoutStart + length, end - MARGIN);
        }
        hasAnomaly = dropoutStart == dropoutEnd
                && SeededHash.unit(seed, TAG_ANOMALY, machine, cycle) < config.anomalyProbability();
        if (hasAnomaly) {
            long room = runLength - ANOMALY_SPAN - 2 * MARGIN;
            spikeStart = runStart + MARGIN + (long) (room * SeededHash.unit(seed, TAG_ANOMALY_AT, machine, cycle));
            dropStart = spikeStart + DROP_DELAY_MIN
                    + (long) (DROP_DELAY_SPREAD * SeededHash.unit(seed, TAG_DROP_DELAY, machine, cycle));
        }
        return this;
    }

    /** The phase at {@code time}, which must lie in the current cycle. */
    Phase phaseAt(long time) {
        if (time < runStart) {
            return Phase.STOPPED;
        }
        if (time >= dropoutStart && time < dropoutEnd) {
            return Phase.SILENT;
        }
        return Phase.RUNNING;
    }

    boolean inSpike(long time) {
        return hasAnomaly && time >= spikeStart && time < spikeStart + SPIKE_LENGTH;
    }

    boolean inDrop(long time) {
        return hasAnomaly && time >= dropStart && time < dropStart + DROP_LENGTH;
    }

    Anomaly anomaly() {
        return new Anomaly(config.machineId(machine), spikeStart, spikeStart + SPIKE_LENGTH, dropStart, dropStart + DROP_LENGTH);
    }
}
