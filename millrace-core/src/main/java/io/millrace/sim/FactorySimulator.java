package io.millrace.sim;

import io.millrace.api.source.Boundedness;
import io.millrace.api.source.Source;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import io.millrace.api.time.WatermarkStrategy;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A simulated factory floor as a source of {@link FactoryEvent}s: machines with vibration, temperature
 * and pressure sensors, run cycles (spindle start and stop), drop-outs (a running machine goes silent),
 * out-of-order and late delivery, and injected anomalies (a temperature spike followed within 30 s by a
 * pressure drop) whose ground truth {@link #anomalies} returns.
 *
 * <p>Event time is simulated: it follows from the slot of an event and {@code eventsPerSecond}, never
 * from the wall clock, which only paces the emission (by the reader context's clock, times
 * {@code speedup}). The same seed and options give the same events, per split, and a reader restored
 * from a snapshot continues exactly where the snapshot was taken. Each split is a group of machines
 * (one per reader), so watermarks are per group. See {@link SimulatorConfig} for the options.
 *
 * <pre>{@code
 * FactorySimulator sim = new FactorySimulator(SimulatorConfig.builder()
 *         .machines(20).eventsPerSecond(2_000).duration(Duration.ofMinutes(30)).seed(7).build());
 * DataStream<FactoryEvent> events = pipeline.fromSource(sim, sim.watermarkStrategy(), "factory");
 * }</pre>
 */
public final class FactorySimulator implements Source<FactoryEvent, MachineGroupSplit> {
    /** From the start of an anomaly's temperature spike to the latest end of its pressure drop: 30 s. */
    public static final java.time.Duration ANOMALY_SPAN = java.time.Duration.ofMillis(MachineCycle.ANOMALY_SPAN);

    private final SimulatorConfig config;

    public FactorySimulator(SimulatorConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    public SimulatorConfig config() {
        return config;
    }

    @Override
    public io.millrace.api.source.VersionedCodec<MachineGroupSplit> splitCodec() {
        return new MachineGroupSplitCodec();
    }

    /** Version 1: the split's fields in declaration order. */
    static final class MachineGroupSplitCodec extends io.millrace.api.source.DataCodec<MachineGroupSplit> {
        private static final long serialVersionUID = 1L;

        @Override
        public int version() {
            return 1;
        }

        @Override
        protected void write(MachineGroupSplit s, java.io.DataOutputStream out) throws java.io.IOException {
            out.writeUTF(s.splitId());
            out.writeInt(s.firstMachine());
            out.writeInt(s.machineCount());
            out.writeLong(s.quota());
            out.writeLong(s.emitted());
            out.writeLong(s.lastEmitTime());
            out.writeLong(s.lastSlot());
        }

        @Override
        protected MachineGroupSplit read(int version, java.io.DataInputStream in) throws java.io.IOException {
            return new MachineGroupSplit(in.readUTF(), in.readInt(), in.readInt(), in.readLong(), in.readLong(), in.readLong(), in.readLong());
        }
    }

    @Override
    public Boundedness boundedness() {
        return config.isBounded() ? Boundedness.BOUNDED : Boundedness.CONTINUOUS_UNBOUNDED;
    }

    /** At most one reader per machine. */
    @Override
    public int maxParallelism() {
        return config.machines();
    }

    /** Watermarks that trail event time by the configured out-of-orderness (late events stay late). */
    public WatermarkStrategy<FactoryEvent> watermarkStrategy() {
        return WatermarkStrategy.boundedOutOfOrderness(config.maxOutOfOrderness());
    }

    /**
     * {@code min(parallelism, machines)} groups of consecutive machines, sizes differing by at most one;
     * a count bound is shared among them in proportion to their machines.
     */
    @Override
    public List<MachineGroupSplit> createSplits(int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, was " + parallelism);
        }
        int machines = config.machines();
        int groups = Math.min(parallelism, machines);
        List<MachineGroupSplit> splits = new ArrayList<>(groups);
        for (int i = 0; i < groups; i++) {
            int from = (int) ((long) i * machines / groups);
            int to = (int) ((long) (i + 1) * machines / groups);
            long quota = config.maxEvents() < 0 ? -1 : share(to) - share(from);
            String id = "machines-" + config.machineId(from) + "-" + config.machineId(to - 1);
            splits.add(new MachineGroupSplit(id, from, to - from, quota, 0, Long.MIN_VALUE, -1));
        }
        return splits;
    }

    /** The events due to machines {@code [0, machine)}: floor(maxEvents * machine / machines). */
    private long share(int machine) {
        return BigInteger.valueOf(config.maxEvents()).multiply(BigInteger.valueOf(machine))
                .divide(BigInteger.valueOf(config.machines())).longValueExact();
    }

    @Override
    public SourceReader<FactoryEvent, MachineGroupSplit> createReader(SourceReaderContext context) {
        return new SimulatorReader(config, context.clock());
    }

    /**
     * The anomalies injected with a spike starting in {@code [from, to)} (event times), over all machines,
     * ordered by spike start then machine. The range is clipped to the simulated time span, which for this
     * purpose begins {@link #ANOMALY_SPAN} before the start time: an anomaly already in progress at the start
     * is listed too (its readings before the start are not emitted). The cost grows with machines times run
     * cycles in the range. An anomaly shows in the stream only if the stream runs past its {@code dropEnd}.
     */
    public List<Anomaly> anomalies(long from, long to) {
        from = Math.max(from, config.startTime() - ANOMALY_SPAN.toMillis());
        if (config.durationMillis() >= 0) {
            to = Math.min(to, config.startTime() + config.durationMillis());
        }
        List<Anomaly> found = new ArrayList<>();
        for (int m = 0; m < config.machines(); m++) {
            MachineCycle cycle = new MachineCycle(config, m);
            long t = from - config.runCycleMillis();
            while (true) {
                cycle.moveTo(t);
                if (cycle.start >= to) {
                    break;
                }
                if (cycle.hasAnomaly && cycle.spikeStart >= from && cycle.spikeStart < to) {
                    found.add(cycle.anomaly());
                }
                t = cycle.end;
            }
        }
        found.sort(Comparator.comparingLong(Anomaly::spikeStart).thenComparing(Anomaly::machineId));
        return found;
    }

    /**
     * The anomalies of a simulation bounded by {@code duration}: those that lie entirely in it.
     *
     * @throws IllegalStateException if the simulation is not bounded by duration
     */
    public List<Anomaly> anomalies() {
        if (config.durationMillis() < 0) {
            throw new IllegalStateException("anomalies() needs option 'duration'; use anomalies(from, to) otherwise");
        }
        long end = config.startTime() + config.durationMillis();
        List<Anomaly> all = anomalies(config.startTime(), end);
        all.removeIf(a -> a.dropEnd() > end);
        return all;
    }
}
