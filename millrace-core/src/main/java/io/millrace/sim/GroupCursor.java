package io.millrace.sim;

import io.millrace.api.source.ReaderOutput;
import io.millrace.api.time.Clock;

/**
 * Simulates one machine group: generates the group's slots in event-time order, gives each event a
 * delay, and emits the events in the order of (emission time, global slot). Every value is a pure
 * function of the seed, the options and the slot, so a cursor built from a snapshotted split regenerates
 * the slots that may still hold unemitted events and skips those at or before the split's last emission
 * key. Used by one reader thread.
 *
 * <p>Slots: global slot {@code g = round * machines + machine} has event time
 * {@code start + floor(g * 1000 / eventsPerSecond)}; in its slot a machine reports one sensor (they take
 * turns), or a spindle change, or nothing (stopped, silent).
 */
final class GroupCursor {
    /** What a poll of the cursor achieved. */
    enum Progress {
        /** Events were emitted or slots generated; poll again soon. */
        ADVANCED,
        /** The next event is not due yet by the clock. */
        AHEAD,
        /** The split is finished. */
        DONE
    }

    private static final Sensor[] SENSORS = Sensor.values();
    private static final int TAG_NOISE = 20;
    private static final int TAG_DELAY = 21;
    private static final int TAG_LATE = 22;
    private static final int TAG_OUT_OF_ORDER = 23;
    private static final int TAG_WAVE = 24;
    private static final double TWO_PI = 2 * Math.PI;

    private final SimulatorConfig config;
    private final MachineGroupSplit split;
    private final int machines;
    private final int first;
    private final int count;
    private final long rate;
    private final long start;
    private final long endTime;
    private final long seed;
    private final MachineCycle[] cycles;
    private final MachineCycle[] previousCycles;
    private final String[] ids;
    private final double[] wavePhase;
    /** Delays up to this use the O(1) wheel (a few hundred KB per split); longer ones the heap. */
    private static final long WHEEL_MAX_DELAY = 1 << 17;

    private final EmissionQueue pending;
    private final long resumeEmitTime;
    private final long resumeSlot;

    private long nextSlot;
    private long nextTime;
    private boolean generated;
    private long emitted;
    private long lastEmitTime;
    private long lastSlot;

    private boolean anchored;
    private long anchorWall;
    private long anchorSim;

    private ReaderOutput<FactoryEvent> outOf;
    private ReaderOutput.SplitOutput<FactoryEvent> out;

    GroupCursor(SimulatorConfig config, MachineGroupSplit split) {
        this.config = config;
        this.split = split;
        this.machines = config.machines();
        this.first = split.firstMachine();
        this.count = split.machineCount();
        this.rate = config.eventsPerSecond();
        this.start = config.startTime();
        this.endTime = config.durationMillis() < 0 ? Long.MAX_VALUE : start + config.durationMillis();
        this.seed = config.seed();
        this.pending = config.maxDelayMillis() <= WHEEL_MAX_DELAY
                ? new EmissionWheel(config.maxDelayMillis())
                : new EmissionHeap();
        this.cycles = new MachineCycle[count];
        this.previousCycles = new MachineCycle[count];
        this.ids = new String[count];
        this.wavePhase = new double[count];
        for (int i = 0; i < count; i++) {
            cycles[i] = new MachineCycle(config, first + i);
            previousCycles[i] = new MachineCycle(config, first + i);
            ids[i] = config.machineId(first + i);
            wavePhase[i] = TWO_PI * SeededHash.unit(seed, TAG_WAVE, first + i, 0);
        }
        this.emitted = split.emitted();
        this.lastEmitTime = split.lastEmitTime();
        this.lastSlot = split.lastSlot();
        this.resumeEmitTime = split.lastEmitTime();
        this.resumeSlot = split.lastSlot();
        if (split.lastSlot() >= 0) {
            // slots before this round have event times so early that all their events were emitted
            long from = split.lastEmitTime() - config.maxDelayMillis();
            double rounds = (from - start) * (double) rate / 1000.0 / machines;
            nextSlot = Math.max(0, (long) Math.floor(rounds) - 1) * count;
        }
        this.nextTime = timeOfLocal(nextSlot);
        this.generated = nextTime >= endTime;
    }

    MachineGroupSplit snapshot() {
        return split.at(emitted, lastEmitTime, lastSlot);
    }

    String splitId() {
        return split.splitId();
    }

    /**
     * Emits the events that are due by the clock, at most {@code budget} of them, and generates at most
     * {@code 4 * budget} slots.
     */
    Progress poll(ReaderOutput<FactoryEvent> output, Clock clock, int budget) {
        if (quotaReached()) {
            return Progress.DONE;
        }
        if (outOf != output) {
            outOf = output;
            out = output.split(split.splitId());
        }
        long simNow = simulatedNow(clock);
        int emittedNow = 0;
        int generatedNow = 0;
        while (emittedNow < budget && generatedNow < 4 * budget) {
            if (!pending.isEmpty() && (generated || pending.firstEmitAt() <= nextTime)) {
                if (pending.firstEmitAt() > simNow) {
                    break;
                }
                lastEmitTime = pending.firstEmitAt();
                lastSlot = pending.firstSlot();
                FactoryEvent event = pending.poll();
                out.collect(event, event.eventTime());
                emitted++;
                emittedNow++;
                if (quotaReached()) {
                    pending.clear();
                    return Progress.DONE;
                }
            } else if (!generated) {
                if (nextTime > simNow) {
                    break;
                }
                pending.advanceTo(nextTime); // every queued event is due after nextTime
                generate(nextSlot, nextTime);
                nextSlot++;
                nextTime = timeOfLocal(nextSlot);
                generated = nextTime >= endTime;
                generatedNow++;
            } else {
                return Progress.DONE;
            }
        }
        return emittedNow > 0 || generatedNow > 0 ? Progress.ADVANCED : Progress.AHEAD;
    }

    private boolean quotaReached() {
        return split.quota() >= 0 && emitted >= split.quota();
    }

    private long simulatedNow(Clock clock) {
        double speedup = config.speedup();
        if (Double.isInfinite(speedup)) {
            return Long.MAX_VALUE;
        }
        long wall = clock.millis();
        if (!anchored) {
            anchored = true;
            anchorWall = wall;
            anchorSim = lastSlot >= 0 ? lastEmitTime : start;
        }
        double ahead = (wall - anchorWall) * speedup;
        return ahead > 1e15 ? Long.MAX_VALUE / 2 : anchorSim + (long) ahead;
    }

    private long timeOfLocal(long localSlot) {
        return timeOfGlobal((localSlot / count) * machines + first + localSlot % count);
    }

    private long timeOfGlobal(long globalSlot) {
        return start + Math.floorDiv(globalSlot * 1000, rate);
    }

    private void generate(long localSlot, long time) {
        int local = (int) (localSlot % count);
        long round = localSlot / count;
        long global = round * machines + first + local;
        FactoryEvent event = eventOf(local, round, global, time);
        if (event == null) {
            return;
        }
        long emitAt = time + delayOf(global);
        if (emitAt < resumeEmitTime || (emitAt == resumeEmitTime && global <= resumeSlot)) {
            return; // emitted before the snapshot this cursor was restored from
        }
        pending.add(emitAt, global, event);
    }

    /** The event of a slot, or null when the machine reports nothing in it. */
    private FactoryEvent eventOf(int local, long round, long global, long time) {
        MachineCycle cycle = cycles[local].moveTo(time);
        MachineCycle.Phase phase = cycle.phaseAt(time);
        if (phase == MachineCycle.Phase.SILENT) {
            return null;
        }
        MachineCycle.Phase previous = null;
        if (round > 0) {
            long before = timeOfGlobal(global - machines);
            previous = previousCycles[local].moveTo(before).phaseAt(before);
        }
        if (phase == MachineCycle.Phase.STOPPED) {
            return previous == MachineCycle.Phase.STOPPED ? null : new SpindleEvent(ids[local], SpindleState.STOPPED, time, round);
        }
        if (previous == null || previous == MachineCycle.Phase.STOPPED) {
            return new SpindleEvent(ids[local], SpindleState.RUNNING, time, round);
        }
        Sensor sensor = SENSORS[(int) (round % SENSORS.length)];
        return new SensorReading(ids[local], sensor, valueOf(local, sensor, cycle, time, global), time, round);
    }

    private double valueOf(int local, Sensor sensor, MachineCycle cycle, long time, long global) {
        double noise = SeededHash.unit(seed, TAG_NOISE, global, 0) - 0.5;
        double t = time - start;
        double phase = wavePhase[local];
        double value = switch (sensor) {
            case VIBRATION -> 4.0 + 1.2 * Math.sin(TWO_PI * t / 45_000 + phase) + 1.6 * noise;
            case TEMPERATURE -> 65.0 + 4.5 * Math.sin(TWO_PI * t / 600_000 + phase) + noise
                    + (cycle.inSpike(time) ? 25.0 : 0.0);
            case PRESSURE -> 6.0 + 0.2 * Math.sin(TWO_PI * t / 300_000 + phase) + 0.2 * noise
                    - (cycle.inDrop(time) ? 2.5 : 0.0);
        };
        return Math.round(value * 100) / 100.0;
    }

    /** How long after its event time the event of a slot is emitted. */
    private long delayOf(long global) {
        double u = SeededHash.unit(seed, TAG_DELAY, global, 0);
        long bound = config.maxOutOfOrdernessMillis();
        if (u < config.lateFraction()) {
            long late = config.lateDelayMillis();
            return bound + late / 2 + (long) ((late - late / 2) * SeededHash.unit(seed, TAG_LATE, global, 0));
        }
        return bound == 0 ? 0 : (long) ((bound + 1) * SeededHash.unit(seed, TAG_OUT_OF_ORDER, global, 0));
    }
}
