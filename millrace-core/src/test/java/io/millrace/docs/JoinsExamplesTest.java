package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessJoinFunction;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.window.Windows;
import io.millrace.sim.FactoryEvent;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.Sensor;
import io.millrace.sim.SensorReading;
import io.millrace.sim.SimulatorConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The examples of docs/joins.md; each runs here and is checked against a nested-loop join of the same readings. */
class JoinsExamplesTest {

    // tag::next-machine[]
    /** The position of a machine on the line: M001 is 1, M002 is 2, ... */
    static int position(String machineId) {
        return Integer.parseInt(machineId.substring(1));
    }

    /** "M002 at 86.1 °C, then M003 at 5.9 bar 12 s later". */
    static final class HeatThenPressure extends ProcessJoinFunction<SensorReading, SensorReading, String> {
        @Override
        public void processElement(SensorReading hot, SensorReading pressure, Context ctx, Collector<String> out) {
            long seconds = (ctx.rightTimestamp() - ctx.leftTimestamp()) / 1000;
            out.collect(String.format("%s at %.1f °C, then %s at %.1f bar %d s later",
                    hot.machineId(), hot.value(), pressure.machineId(), pressure.value(), seconds));
        }
    }
    // end::next-machine[]

    private static FactorySimulator factory() {
        return new FactorySimulator(SimulatorConfig.builder()
                .machines(6).eventsPerSecond(30).duration(Duration.ofHours(1)).anomalyProbability(0.6).unlimitedSpeed().seed(3).build());
    }

    @Test
    void intervalJoin_hotReadingsCorrelatedWithThePressureOfTheNextMachineWithin30Seconds() {
        FactorySimulator factory = factory();
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> correlated = new CollectSink<>();
        CollectSink<SensorReading> lateHot = new CollectSink<>();
        CollectSink<SensorReading> latePressure = new CollectSink<>();
        CollectSink<SensorReading> allReadings = new CollectSink<>();
        // tag::interval[]
        OutputTag<SensorReading> lateTemperatures = new OutputTag<>("late-temperatures");
        OutputTag<SensorReading> latePressures = new OutputTag<>("late-pressures");
        DataStream<SensorReading> readings = pipeline.fromSource(factory, factory.watermarkStrategy(), "factory")
                .flatMap(FactoryEvent.readings());
        DataStream<SensorReading> hot = readings.filter(r -> r.sensor() == Sensor.TEMPERATURE && r.value() > 80);
        DataStream<SensorReading> pressure = readings.filter(r -> r.sensor() == Sensor.PRESSURE);

        DataStream<String> pairs = hot
                .keyBy(r -> position(r.machineId()) + 1)                 // keyed by the next machine on the line
                .intervalJoin(pressure.keyBy(r -> position(r.machineId())))
                .between(Duration.ZERO, Duration.ofSeconds(30))           // pressure 0..30 s after the heat
                .sideOutputLeftLateData(lateTemperatures)                 // readings too late to be joined
                .sideOutputRightLateData(latePressures)
                .process(new HeatThenPressure());
        pairs.sinkTo(correlated);
        pairs.getSideOutput(lateTemperatures).sinkTo(lateHot);
        pairs.getSideOutput(latePressures).sinkTo(latePressure);
        // end::interval[]
        readings.sinkTo(allReadings);
        pipeline.execute("heat then pressure");

        Set<SensorReading> late = new HashSet<>(lateHot.results());
        late.addAll(latePressure.results());
        Map<Integer, List<SensorReading>> pressuresByPosition = allReadings.results().stream()
                .filter(r -> r.sensor() == Sensor.PRESSURE && !late.contains(r))
                .collect(Collectors.groupingBy(r -> position(r.machineId())));
        List<String> expected = new ArrayList<>();
        for (SensorReading t : allReadings.results()) {
            if (t.sensor() != Sensor.TEMPERATURE || t.value() <= 80 || late.contains(t)) {
                continue;
            }
            for (SensorReading p : pressuresByPosition.getOrDefault(position(t.machineId()) + 1, List.of())) {
                long after = p.eventTime() - t.eventTime();
                if (after >= 0 && after <= 30_000) {
                    expected.add(String.format("%s at %.1f °C, then %s at %.1f bar %d s later",
                            t.machineId(), t.value(), p.machineId(), p.value(), after / 1000));
                }
            }
        }
        assertThat(late).as("late readings in the simulated floor").isNotEmpty();
        assertThat(expected).as("pairs in the simulated floor").hasSizeGreaterThan(20);
        assertThat(correlated.results()).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void windowJoin_hotReadingsAndPressureLossOfTheSameMachineInTheSameMinute() {
        FactorySimulator factory = new FactorySimulator(SimulatorConfig.builder()
                .machines(6).eventsPerSecond(30).duration(Duration.ofHours(1)).anomalyProbability(0.6).lateFraction(0)
                .unlimitedSpeed().seed(3).build());
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> minutes = new CollectSink<>();
        CollectSink<SensorReading> allReadings = new CollectSink<>();
        // tag::window[]
        DataStream<SensorReading> readings = pipeline.fromSource(factory, factory.watermarkStrategy(), "factory")
                .flatMap(FactoryEvent.readings());
        DataStream<SensorReading> hot = readings.filter(r -> r.sensor() == Sensor.TEMPERATURE && r.value() > 80);
        DataStream<SensorReading> lowPressure = readings.filter(r -> r.sensor() == Sensor.PRESSURE && r.value() < 4.5);

        hot.join(lowPressure)
                .where(SensorReading::machineId).equalTo(SensorReading::machineId)
                .window(Windows.tumbling(Duration.ofMinutes(1)))
                .apply((t, p) -> t.machineId() + " minute " + t.eventTime() / 60_000 + ": " + t.value() + " °C with " + p.value() + " bar")
                .sinkTo(minutes);
        // end::window[]
        readings.sinkTo(allReadings);
        pipeline.execute("heat and pressure loss per minute");

        List<SensorReading> hotReadings = allReadings.results().stream()
                .filter(t -> t.sensor() == Sensor.TEMPERATURE && t.value() > 80).toList();
        List<SensorReading> lowReadings = allReadings.results().stream()
                .filter(p -> p.sensor() == Sensor.PRESSURE && p.value() < 4.5).toList();
        List<String> expected = new ArrayList<>();
        for (SensorReading t : hotReadings) {
            for (SensorReading p : lowReadings) {
                if (t.machineId().equals(p.machineId()) && t.eventTime() / 60_000 == p.eventTime() / 60_000) {
                    expected.add(t.machineId() + " minute " + t.eventTime() / 60_000 + ": " + t.value() + " °C with " + p.value() + " bar");
                }
            }
        }
        assertThat(expected).as("pairs in the simulated floor").hasSizeGreaterThan(10);
        assertThat(minutes.results()).containsExactlyInAnyOrderElementsOf(expected);
    }
}
