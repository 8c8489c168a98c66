package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.sim.Anomaly;
import io.millrace.sim.FactoryEvent;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.Sensor;
import io.millrace.sim.SensorReading;
import io.millrace.sim.SimulatorConfig;
import io.millrace.sim.SpindleEvent;
import io.millrace.sim.SpindleState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of docs/factory-simulator.md; each runs here. */
class FactorySimulatorExamplesTest {

    @Test
    void firstRun() {
        // tag::first-run[]
        SimulatorConfig config = SimulatorConfig.builder()
                .machines(8)
                .eventsPerSecond(400)
                .duration(Duration.ofMinutes(30))
                .unlimitedSpeed()
                .seed(7)
                .build();
        FactorySimulator factory = new FactorySimulator(config);

        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<SensorReading> hot = new CollectSink<>();
        CollectSink<SpindleEvent> starts = new CollectSink<>();
        DataStream<FactoryEvent> events = pipeline.fromSource(factory, factory.watermarkStrategy(), "factory");
        events.flatMap(FactoryEvent.readings())
                .filter(r -> r.sensor() == Sensor.TEMPERATURE && r.value() > 80)
                .sinkTo(hot);
        events.flatMap(FactoryEvent.spindleEvents())
                .filter(s -> s.state() == SpindleState.RUNNING)
                .sinkTo(starts);

        pipeline.execute("factory floor");
        // end::first-run[]
        assertThat(hot.results()).isNotEmpty().allMatch(r -> factory.anomalies().stream()
                .anyMatch(a -> a.machineId().equals(r.machineId()) && r.eventTime() >= a.spikeStart() && r.eventTime() < a.spikeEnd()));
        assertThat(starts.results()).hasSizeGreaterThan(8 * 5);
    }

    // tag::detector[]
    /** Alerts once when a machine overheats (> 80 °C) and loses pressure (< 4.5 bar) within 30 s after. */
    static final class OverheatThenPressureLoss extends KeyedProcessFunction<String, SensorReading, String> {
        private transient ValueState<Long> lastHot;
        private transient ValueState<Long> lastAlerted;

        @Override
        public void open(RuntimeContext context) {
            lastHot = context.state().getState(new ValueStateDescriptor<>("last-hot"));
            lastAlerted = context.state().getState(new ValueStateDescriptor<>("last-alerted"));
        }

        @Override
        public void processElement(SensorReading r, Context<String> ctx, Collector<String> out) {
            if (r.sensor() == Sensor.TEMPERATURE && r.value() > 80) {
                lastHot.update(r.eventTime());
            } else if (r.sensor() == Sensor.PRESSURE && r.value() < 4.5 && lastHot.value() != null) {
                long hot = lastHot.value();
                Long alerted = lastAlerted.value();
                boolean sameEpisode = alerted != null && Math.abs(hot - alerted) < 60_000;
                if (r.eventTime() >= hot && r.eventTime() - hot <= 30_000 && !sameEpisode) {
                    lastAlerted.update(hot);
                    out.collect(r.machineId() + " overheated at " + hot);
                }
            }
        }
    }
    // end::detector[]

    @Test
    void detectionMatchesGroundTruth() {
        // tag::ground-truth[]
        FactorySimulator factory = new FactorySimulator(SimulatorConfig.builder()
                .machines(6)
                .eventsPerSecond(300)
                .duration(Duration.ofHours(1))
                .anomalyProbability(0.5)
                .unlimitedSpeed()
                .build());

        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> alerts = new CollectSink<>();
        pipeline.fromSource(factory, factory.watermarkStrategy(), "factory")
                .flatMap(FactoryEvent.readings())
                .keyBy(SensorReading::machineId)
                .process(new OverheatThenPressureLoss())
                .sinkTo(alerts);
        pipeline.execute("anomaly detection");

        List<Anomaly> truth = factory.anomalies();   // machine, spike and drop intervals of every injected anomaly
        // end::ground-truth[]
        assertThat(truth).isNotEmpty();
        assertThat(alerts.results()).hasSameSizeAs(truth);
        for (Anomaly a : truth) {
            assertThat(alerts.results()).anyMatch(alert -> {
                String[] parts = alert.split(" overheated at ");
                long hot = Long.parseLong(parts[1]);
                return parts[0].equals(a.machineId()) && hot >= a.spikeStart() && hot < a.spikeEnd();
            });
        }
    }
}
