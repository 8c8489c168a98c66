package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.KeySelector;
import io.millrace.api.plan.OperatorSpec;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.state.MapState;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.time.TimeDomain;
import io.millrace.api.time.TimerService;
import io.millrace.operator.AbstractStreamOperator;
import io.millrace.operator.OneInputOperator;
import io.millrace.operator.OperatorContext;
import io.millrace.operator.Output;
import io.millrace.operator.SpecLowering;
import io.millrace.operator.StreamOperator;
import io.millrace.operator.TimerCallback;
import io.millrace.operator.UserFunctionException;
import io.millrace.sim.FactoryEvent;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.Sensor;
import io.millrace.sim.SensorReading;
import io.millrace.sim.SimulatorConfig;
import io.millrace.testing.Emitted;
import io.millrace.testing.OneInputOperatorHarness;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The examples of docs/operators.md: two operators written on the operator SPI alone, lowered from their specs by
 * {@link ExampleLowering} (registered in this module's test resources, META-INF/services), run in a pipeline at
 * parallelism 2 and checked against a recomputation over the same readings.
 */
public class OperatorsExamplesTest {

    // tag::counter[]
    /**
     * Counts the readings of each machine per period of event time and emits each count once the watermark has
     * passed the end of its period. Readings that arrive after that go to the LATE side output.
     */
    public static final class ReadingCounter extends AbstractStreamOperator<String>
            implements OneInputOperator<SensorReading, String>, TimerCallback {
        public static final OutputTag<SensorReading> LATE = new OutputTag<>("late-readings");

        private final long period;
        private KeySelector<Object, Object> key;
        private MapState<Long, Long> counts;         // period end -> readings so far, of the current machine
        private TimerService periodEnds;

        public ReadingCounter(Duration period) {
            this.period = period.toMillis();
        }

        @Override
        public void open(OperatorContext context, Output<String> output) throws Exception {
            super.open(context, output);
            if (!context.keyed()) {
                throw new IllegalStateException("'" + context.operatorName() + "' counts per machine: keyBy the machine first");
            }
            key = context.keySelector(0);
            counts = context.state().getMapState(new MapStateDescriptor<>("counts"));
            periodEnds = context.timerService("period-ends", this);
        }

        @Override
        public void processRecord(SensorReading reading, long timestamp) throws Exception {
            long end = timestamp - Math.floorMod(timestamp, period) + period - 1;
            if (end <= currentWatermark) {                  // its period has been emitted already
                output.emit(LATE, reading, timestamp);
                metrics.lateRecordsDiverted++;
                return;
            }
            try {
                context.setCurrentKey(key.getKey(reading));
            } catch (Exception e) {
                throw UserFunctionException.of(context, reading, e);
            }
            Long n = counts.get(end);
            counts.put(end, n == null ? 1 : n + 1);
            periodEnds.registerEventTimeTimer(end);         // once per (machine, end), however often registered
        }

        /** A period ended for the current machine: emit its count, drop it from state. */
        @Override
        public void onTimer(long end, TimeDomain domain) {
            Long n = counts.get(end);
            counts.remove(end);
            output.emit(context.currentKey() + " " + (end + 1 - period) + ".." + end + ": " + n, end);
        }

        /** Timers first, so that their counts go out before the watermark that fired them. */
        @Override
        public void processWatermark(long watermark) throws Exception {
            context.fireEventTimeTimers(watermark);
            super.processWatermark(watermark);
        }

        /** Below the earliest timer a watermark changes nothing here but the lateness threshold. */
        @Override
        public long watermarkToAct() {
            return counts == null ? Long.MIN_VALUE : context.nextEventTimeTimer();
        }
    }
    // end::counter[]

    // tag::limits[]
    /** Where the temperature limits of the machines come from: a slow call to a configuration service, say. */
    public interface LimitLookup extends Serializable {
        Map<String, Double> load() throws Exception;
    }

    /**
     * Flags temperature readings above their machine's limit. The limits are loaded on a thread of the operator's
     * own, and handed back to the task thread through the mailbox. Until they arrive, readings and watermarks are
     * held back (readings in the operator's snapshot), so that every reading is judged against the limits and none
     * is overtaken by a watermark.
     */
    public static final class LimitAlerts extends AbstractStreamOperator<String> implements OneInputOperator<SensorReading, String> {
        private final LimitLookup lookup;
        private ExecutorService loader;
        private CompletableFuture<Map<String, Double>> loading;
        private Map<String, Double> limits;                       // task thread only; null until loaded
        private final List<SensorReading> held = new ArrayList<>();
        private long heldWatermark = Long.MIN_VALUE;

        public LimitAlerts(LimitLookup lookup) {
            this.lookup = lookup;
        }

        @Override
        public void restoreOperatorState(List<Serializable> items) {
            for (Serializable item : items) {
                held.add((SensorReading) item);
            }
        }

        @Override
        public void open(OperatorContext context, Output<String> output) throws Exception {
            super.open(context, output);
            loader = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, context.operatorName() + "-limits-" + context.subtaskIndex());
                t.setDaemon(true);
                return t;
            });
            loading = CompletableFuture.supplyAsync(() -> {
                try {
                    return lookup.load();
                } catch (Exception e) {
                    throw new IllegalStateException("loading the temperature limits failed", e);
                }
            }, loader);
            // the loader's thread must not touch the operator: it hands the result to the task thread
            loading.whenComplete((loaded, failure) -> context.mailbox().execute(() -> {
                try {
                    useLimits(loaded, failure);
                } catch (Exception e) {
                    throw new IllegalStateException(e);             // fails the task
                }
            }));
        }

        @Override
        public void processRecord(SensorReading reading, long timestamp) {
            if (limits == null) {
                held.add(reading);
            } else {
                judge(reading);
            }
        }

        @Override
        public void processWatermark(long watermark) throws Exception {
            if (limits == null && watermark != Long.MAX_VALUE) {
                heldWatermark = watermark;                   // released with the held readings
                return;
            }
            if (limits == null) {                            // the input ended: wait for the limits here
                try {
                    useLimits(loading.join(), null);
                } catch (java.util.concurrent.CompletionException e) {
                    useLimits(null, e.getCause());
                }
            }
            super.processWatermark(watermark);
        }

        /** Runs on the task thread: as a mail, or at the end of the input, whichever comes first. */
        private void useLimits(Map<String, Double> loaded, Throwable failure) throws Exception {
            if (failure != null) {
                throw new IllegalStateException("operator '" + context.operatorName() + "' has no temperature limits", failure);
            }
            if (limits != null) {
                return;                                      // already used at the end of the input
            }
            limits = loaded;
            held.forEach(this::judge);
            held.clear();
            if (heldWatermark != Long.MIN_VALUE) {
                super.processWatermark(heldWatermark);
            }
        }

        private void judge(SensorReading r) {
            Double limit = limits.get(r.machineId());
            if (r.sensor() == Sensor.TEMPERATURE && limit != null && r.value() > limit) {
                output.emit(r.machineId() + " at " + r.value() + " °C, limit " + limit, r.eventTime());
            }
        }

        @Override
        public List<SensorReading> snapshotOperatorState(long checkpointId) {
            return List.copyOf(held);
        }

        @Override
        public void close() {
            if (loader != null) {
                loader.shutdownNow();
            }
        }
    }
    // end::limits[]

    // tag::lowering[]
    /** The specs the pipeline holds: plain data, serializable, one node each. */
    public record CountReadings(Duration period) implements OperatorSpec {
        @Override
        public String defaultName() {
            return "count-readings";
        }

        @Override
        public boolean keyed() {
            return true;
        }
    }

    public record FlagOverLimit(LimitLookup lookup) implements OperatorSpec {
        @Override
        public String defaultName() {
            return "flag-over-limit";
        }
    }

    /** Makes a fresh operator per subtask from each spec; listed in META-INF/services/io.millrace.operator.SpecLowering. */
    public static final class ExampleLowering implements SpecLowering {
        @Override
        public boolean handles(OperatorSpec spec) {
            return spec instanceof CountReadings || spec instanceof FlagOverLimit;
        }

        @Override
        public StreamOperator<?> create(OperatorSpec spec) {
            if (spec instanceof CountReadings count) {
                return new ReadingCounter(count.period());
            }
            return new LimitAlerts(((FlagOverLimit) spec).lookup());
        }
    }
    // end::lowering[]

    /** The limits of the example: 80 °C, except for M002, which runs hot. */
    static final class FixedLimits implements LimitLookup {
        @Override
        public Map<String, Double> load() {
            Map<String, Double> limits = new HashMap<>();
            for (int m = 1; m <= 6; m++) {
                limits.put(String.format("M%03d", m), m == 2 ? 90.0 : 80.0);
            }
            return limits;
        }
    }

    private static FactorySimulator factory() {
        return new FactorySimulator(SimulatorConfig.builder()
                .machines(6).eventsPerSecond(30).duration(Duration.ofMinutes(20)).anomalyProbability(0.6).unlimitedSpeed().seed(7).build());
    }

    @Test
    void readingCounter_emitsTheReadingsOfEachMachinePerTenSeconds_andDivertsTheLateOnes() {
        FactorySimulator factory = factory();
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> counted = new CollectSink<>();
        CollectSink<SensorReading> late = new CollectSink<>();
        CollectSink<SensorReading> all = new CollectSink<>();
        // tag::counter-pipeline[]
        DataStream<SensorReading> readings = pipeline.fromSource(factory, factory.watermarkStrategy(), "factory")
                .flatMap(FactoryEvent.readings());
        DataStream<String> counts = readings
                .keyBy(SensorReading::machineId)
                .transform(new CountReadings(Duration.ofSeconds(10)));
        counts.sinkTo(counted);
        counts.getSideOutput(ReadingCounter.LATE).sinkTo(late);
        // end::counter-pipeline[]
        readings.sinkTo(all);
        pipeline.execute("readings per machine");

        Set<SensorReading> lateReadings = new HashSet<>(late.results());
        Map<String, Long> expected = all.results().stream()
                .filter(r -> !lateReadings.contains(r))
                .collect(Collectors.groupingBy(r -> {
                    long end = r.eventTime() - Math.floorMod(r.eventTime(), 10_000L) + 9_999;
                    return r.machineId() + " " + (end - 9_999) + ".." + end;
                }, Collectors.counting()));
        List<String> expectedLines = expected.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).toList();
        assertThat(lateReadings).as("late readings in the simulated floor").isNotEmpty();
        assertThat(expectedLines).as("machine periods").hasSizeGreaterThan(100);
        assertThat(counted.results()).containsExactlyInAnyOrderElementsOf(expectedLines);
    }

    @Test
    void readingCounter_inTheHarness_countsPerMachineAcrossRestores() throws Exception {
        // tag::counter-harness[]
        try (var h = OneInputOperatorHarness.of(() -> new ReadingCounter(Duration.ofSeconds(10)))
                .keyedBy((SensorReading r) -> r.machineId())
                .open()) {
            h.processElement(new SensorReading("M001", Sensor.TEMPERATURE, 71.5, 1_000, 1), 1_000);
            h.processElement(new SensorReading("M002", Sensor.TEMPERATURE, 64.0, 2_000, 1), 2_000);
            h.processElement(new SensorReading("M001", Sensor.PRESSURE, 5.2, 9_000, 2), 9_000);
            h.processElement(new SensorReading("M001", Sensor.PRESSURE, 5.1, 12_000, 3), 12_000);
            h.processWatermark(9_999);                           // the first period ends

            assertThat(h.output()).containsExactlyInAnyOrder(
                    new Emitted<>("M001 0..9999: 2", 9_999), new Emitted<>("M002 0..9999: 1", 9_999));
            assertThat(h.watermarks()).containsExactly(9_999L);  // after the counts it fired

            h.processElement(new SensorReading("M002", Sensor.PRESSURE, 4.9, 8_000, 2), 8_000);
            assertThat(h.sideOutputValues(ReadingCounter.LATE)).hasSize(1);     // its period was emitted
            assertThat(h.restores()).isEqualTo(6);               // a fresh instance after every input
        }
        // end::counter-harness[]
    }

    @Test
    void limitAlerts_judgeEveryReadingAgainstTheLimitsLoadedOnAnotherThread() {
        FactorySimulator factory = factory();
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> alerts = new CollectSink<>();
        CollectSink<SensorReading> all = new CollectSink<>();
        DataStream<SensorReading> readings = pipeline.fromSource(factory, factory.watermarkStrategy(), "factory")
                .flatMap(FactoryEvent.readings());
        // tag::limits-pipeline[]
        readings.rebalance()
                .<String>transform(new FlagOverLimit(new FixedLimits()))
                .sinkTo(alerts);
        // end::limits-pipeline[]
        readings.sinkTo(all);
        pipeline.execute("readings over their limit");

        Map<String, Double> limits = new FixedLimits().load();
        List<String> expected = all.results().stream()
                .filter(r -> r.sensor() == Sensor.TEMPERATURE && r.value() > limits.get(r.machineId()))
                .map(r -> r.machineId() + " at " + r.value() + " °C, limit " + limits.get(r.machineId()))
                .toList();
        assertThat(expected).as("readings over their limit in the simulated floor").hasSizeGreaterThan(20);
        assertThat(alerts.results()).containsExactlyInAnyOrderElementsOf(expected);
    }
}
