package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.BroadcastStream;
import io.millrace.api.DataStream;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedBroadcastProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.state.BroadcastState;
import io.millrace.api.state.ListState;
import io.millrace.api.state.ListStateDescriptor;
import io.millrace.api.state.MapStateDescriptor;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.sim.FactoryEvent;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.Sensor;
import io.millrace.sim.SensorReading;
import io.millrace.sim.SimulatorConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The broadcast state example of docs/broadcast-state.md, "thresholds broadcast to all machines", run on the factory
 * simulator and checked against a batch recomputation over the same readings.
 */
class BroadcastStateExamplesTest {
    static final long START = SimulatorConfig.DEFAULT_START;
    static final long MINUTE = 60_000;

    // tag::thresholds[]
    /** The temperature limit of every machine of a type, from {@code from} (event time) on. */
    record Threshold(String machineType, double limit, long from) {}

    /** On this floor the machines at odd positions (M001, M003, ...) are lathes, the others mills. */
    static String machineType(String machineId) {
        return Integer.parseInt(machineId.substring(1)) % 2 == 1 ? "lathe" : "mill";
    }

    /** Both types' limits from the start, the lathes' limit lowered after 20 minutes, and a rule without a type. */
    static List<Threshold> thresholds() {
        return List.of(
                new Threshold("lathe", 69.5, START),
                new Threshold("mill", 88.0, START),
                new Threshold(null, 50.0, START + 10 * MINUTE),   // bad: goes to the rejected side output
                new Threshold("lathe", 67.0, START + 20 * MINUTE));
    }
    // end::thresholds[]

    // tag::over-limit[]
    /** The broadcast state: per machine type, its limits by the time from which they apply. */
    static final MapStateDescriptor<String, TreeMap<Long, Double>> LIMITS = new MapStateDescriptor<>("limits");
    static final OutputTag<Threshold> REJECTED = new OutputTag<>("rejected-thresholds");

    /** An alarm for every temperature over the limit of its machine's type at the reading's time. */
    static final class OverLimit extends KeyedBroadcastProcessFunction<String, SensorReading, Threshold, String> {
        private transient ListState<SensorReading> waiting;
        private transient int subtask;

        @Override
        public void open(RuntimeContext context) {
            waiting = context.state().getListState(new ListStateDescriptor<>("waiting"));
            subtask = context.subtaskIndex();
        }

        @Override
        public void processBroadcastElement(Threshold t, Context<String> ctx, Collector<String> out) {
            if (t.machineType() == null || !(t.limit() > 0)) {
                if (subtask == 0) {
                    ctx.output(REJECTED, t);   // every subtask sees the bad rule; one reports it
                }
                return;
            }
            BroadcastState<String, TreeMap<Long, Double>> limits = ctx.getBroadcastState(LIMITS);
            TreeMap<Long, Double> byTime = new TreeMap<>();
            if (limits.contains(t.machineType())) {
                byTime.putAll(limits.get(t.machineType()));   // stored values are never changed in place
            }
            byTime.put(t.from(), t.limit());
            limits.put(t.machineType(), byTime);
        }

        @Override
        public void processElement(SensorReading r, ReadOnlyContext<String> ctx, Collector<String> out) {
            waiting.add(r);                                      // until every threshold up to its time is in
            ctx.timerService().registerEventTimeTimer(r.eventTime());
        }

        @Override
        public void onTimer(long time, OnTimerContext<String> ctx, Collector<String> out) {
            TreeMap<Long, Double> byTime = ctx.getBroadcastState(LIMITS).get(machineType(ctx.currentKey()));
            List<SensorReading> later = new ArrayList<>();
            for (SensorReading r : waiting.get()) {
                Map.Entry<Long, Double> limit = byTime == null ? null : byTime.floorEntry(r.eventTime());
                if (r.eventTime() > time) {
                    later.add(r);
                } else if (limit != null && r.value() > limit.getValue()) {
                    out.collect(alarm(r, limit.getValue()));
                }
            }
            waiting.update(later);
        }
    }

    /** "M003 (lathe) 71.2 °C over 69.5 at 1767226800000". */
    static String alarm(SensorReading r, double limit) {
        return String.format("%s (%s) %.1f °C over %.1f at %d", r.machineId(), machineType(r.machineId()), r.value(), limit, r.eventTime());
    }
    // end::over-limit[]

    @Test
    void thresholdsBroadcastToAllMachines_raiseTheAlarmsOfABatchRecomputation() {
        FactorySimulator factory = new FactorySimulator(SimulatorConfig.builder().machines(6).eventsPerSecond(30)
                .duration(Duration.ofHours(1)).anomalyProbability(0.6).lateFraction(0).unlimitedSpeed().seed(11).build());
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> alarmSink = new CollectSink<>();
        CollectSink<Threshold> rejectedSink = new CollectSink<>();
        CollectSink<SensorReading> allTemperatures = new CollectSink<>();
        // tag::pipeline[]
        DataStream<SensorReading> temperatures = pipeline.fromSource(factory, factory.watermarkStrategy(), "factory")
                .flatMap(FactoryEvent.readings())
                .filter(r -> r.sensor() == Sensor.TEMPERATURE);
        BroadcastStream<Threshold> rules = pipeline.fromCollection(thresholds())
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Threshold>monotonous()
                        .withTimestampAssigner((t, ts) -> t.from()))
                .parallelism(1)                                     // one subtask sends, all receive in its order
                .broadcast(LIMITS);

        DataStream<String> alarms = temperatures
                .keyBy(SensorReading::machineId)
                .connect(rules)
                .process(new OverLimit());
        alarms.sinkTo(alarmSink);
        alarms.getSideOutput(REJECTED).sinkTo(rejectedSink);
        // end::pipeline[]
        temperatures.sinkTo(allTemperatures);
        pipeline.execute("thresholds broadcast to all machines");

        List<String> expected = new ArrayList<>();
        for (SensorReading r : allTemperatures.results()) {
            Threshold valid = null;
            for (Threshold t : thresholds()) {
                if (t.machineType() != null && t.machineType().equals(machineType(r.machineId())) && t.from() <= r.eventTime()) {
                    valid = t;
                }
            }
            if (valid != null && r.value() > valid.limit()) {
                expected.add(alarm(r, valid.limit()));
            }
        }
        assertThat(allTemperatures.results()).hasSizeGreaterThan(10_000);
        assertThat(expected).as("lathe alarms before and after the limit was lowered, and mill alarms")
                .anyMatch(s -> s.contains("(lathe)") && s.contains("over 69.5"))
                .anyMatch(s -> s.contains("(lathe)") && s.contains("over 67.0"))
                .anyMatch(s -> s.contains("(mill)"));
        assertThat(alarmSink.results()).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(rejectedSink.results()).containsExactly(new Threshold(null, 50.0, START + 10 * MINUTE));
    }
}
