package io.millrace.cep.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.KeyedStream;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.source.CollectionSource;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.cep.AfterMatchSkipStrategy;
import io.millrace.cep.CEP;
import io.millrace.cep.IterativeCondition;
import io.millrace.cep.Pattern;
import io.millrace.sim.Anomaly;
import io.millrace.sim.FactoryEvent;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.Sensor;
import io.millrace.sim.SensorReading;
import io.millrace.sim.SimulatorConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The examples of docs/cep.md, on the factory simulator and checked against its ground truth. */
class CepExamplesTest {
    /** An alert: the machine, when it overheated and when its pressure dropped. */
    public record Alert(String machine, long spikeAt, long dropAt) {}

    static final SimulatorConfig FLOOR = SimulatorConfig.builder()
            .machines(6).eventsPerSecond(300).duration(Duration.ofMinutes(20)).anomalyProbability(0.5).unlimitedSpeed().seed(11).build();

    @Test
    void spikeThenDrop_findsEveryInjectedAnomaly_andNothingElse() throws Exception {
        // tag::spike-then-drop[]
        Pattern<SensorReading> spikeThenDrop = Pattern.<SensorReading>begin("spike", AfterMatchSkipStrategy.skipPastLastEvent())
                .where(r -> r.sensor() == Sensor.TEMPERATURE && r.value() > 80)
                .followedBy("drop").where(r -> r.sensor() == Sensor.PRESSURE && r.value() < 4.5)
                .within(Duration.ofSeconds(30));

        FactorySimulator factory = new FactorySimulator(FLOOR);
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Alert> alerts = new CollectSink<>();
        KeyedStream<String, SensorReading> readings = pipeline.fromSource(factory, factory.watermarkStrategy(), "factory")
                .flatMap(FactoryEvent.readings())
                .keyBy(SensorReading::machineId);
        CEP.pattern(readings, spikeThenDrop)
                .select(match -> new Alert(match.get("spike").get(0).machineId(),
                        match.get("spike").get(0).eventTime(), match.get("drop").get(0).eventTime()))
                .sinkTo(alerts);
        pipeline.execute("spike then drop");
        // end::spike-then-drop[]

        List<Anomaly> truth = factory.anomalies();
        assertThat(truth).hasSizeGreaterThan(5);
        for (Anomaly a : truth) {
            assertThat(alerts.results()).as("alerts for " + a).anySatisfy(alert -> assertThat(belongsTo(alert, a)).isTrue());
        }
        for (Alert alert : alerts.results()) {
            assertThat(truth).as("the anomaly of " + alert).anySatisfy(a -> assertThat(belongsTo(alert, a)).isTrue());
        }
    }

    private static boolean belongsTo(Alert alert, Anomaly a) {
        return alert.machine().equals(a.machineId()) && alert.spikeAt() >= a.spikeStart() && alert.spikeAt() < a.spikeEnd()
                && alert.dropAt() >= a.dropStart() && alert.dropAt() < a.dropEnd();
    }

    @Test
    void spikesWithoutADropWithin5s_goToTheTimeoutSideOutput() throws Exception {
        // tag::timeouts[]
        Pattern<SensorReading> quickDrop = Pattern.<SensorReading>begin("spike")
                .where(r -> r.sensor() == Sensor.TEMPERATURE && r.value() > 80)
                .followedBy("drop").where(r -> r.sensor() == Sensor.PRESSURE && r.value() < 4.5)
                .within(Duration.ofSeconds(5));
        OutputTag<SensorReading> noQuickDrop = new OutputTag<>("spike-without-quick-drop");

        FactorySimulator factory = new FactorySimulator(FLOOR);
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<SensorReading> unanswered = new CollectSink<>();
        KeyedStream<String, SensorReading> readings = pipeline.fromSource(factory, factory.watermarkStrategy(), "factory")
                .flatMap(FactoryEvent.readings())
                .keyBy(SensorReading::machineId);
        DataStream<String> quick = CEP.pattern(readings, quickDrop)
                .select(noQuickDrop, (partial, timedOutAt) -> partial.get("spike").get(0),   // what matched so far
                        match -> match.get("spike").get(0).machineId());
        quick.getSideOutput(noQuickDrop).sinkTo(unanswered);
        pipeline.execute("spikes without a quick drop");
        // end::timeouts[]

        List<Anomaly> truth = factory.anomalies();
        for (Anomaly a : truth) {                 // the drop starts 5 s or more after the spike: its first readings time out
            assertThat(unanswered.results()).as("timed-out spikes of " + a).anySatisfy(r -> assertThat(
                    r.machineId().equals(a.machineId()) && r.eventTime() >= a.spikeStart() && r.eventTime() < a.spikeEnd()).isTrue());
        }
        for (SensorReading r : unanswered.results()) {
            assertThat(truth).as("the anomaly of " + r).anySatisfy(a -> assertThat(
                    r.machineId().equals(a.machineId()) && r.eventTime() >= a.spikeStart() && r.eventTime() < a.spikeEnd()).isTrue());
        }
    }

    @Test
    void risingTemperature_anIterativeCondition() throws Exception {
        // tag::iterative[]
        Pattern<SensorReading> heatingUp = Pattern.<SensorReading>begin("rising", AfterMatchSkipStrategy.skipPastLastEvent())
                .where((SensorReading r, IterativeCondition.Context<SensorReading> ctx) -> {
                    List<SensorReading> before = ctx.eventsOf("rising");
                    return r.sensor() == Sensor.TEMPERATURE
                            && (before.isEmpty() || r.value() > before.get(before.size() - 1).value());   // above the previous
                })
                .times(3).consecutive()
                .next("hot").where((SensorReading r, IterativeCondition.Context<SensorReading> ctx) -> {
                    double sum = 0;
                    for (SensorReading x : ctx.eventsOf("rising")) {
                        sum += x.value();
                    }
                    return r.value() > sum / 3 + 10;                                              // 10 °C above their mean
                });
        // end::iterative[]

        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
        CollectSink<String> found = new CollectSink<>();
        List<SensorReading> oven = List.of(temp(61, 1), temp(63, 2), temp(62, 3), temp(64, 4), temp(66, 5), temp(79, 6), temp(80, 7));
        KeyedStream<String, SensorReading> readings = pipeline.fromSource(new CollectionSource<>(oven),
                        WatermarkStrategy.<SensorReading>monotonous().withTimestampAssigner((r, ts) -> r.eventTime()), "oven")
                .keyBy(SensorReading::machineId);
        CEP.pattern(readings, heatingUp)
                .select(m -> m.get("rising").stream().map(SensorReading::value).toList() + " then " + m.get("hot").get(0).value())
                .sinkTo(found);
        pipeline.execute("heating up");

        assertThat(found.results()).containsExactly("[62.0, 64.0, 66.0] then 79.0");
    }

    @Test
    void skipStrategies_onOneSequence() throws Exception {
        // tag::skip[]
        // hot+ followed by a drop, over the readings hot1 hot2 hot3 drop
        Map<AfterMatchSkipStrategy, List<String>> expected = Map.of(
                AfterMatchSkipStrategy.noSkip(), List.of("[1, 2, 3] 4", "[1, 2] 4", "[1] 4", "[2, 3] 4", "[2] 4", "[3] 4"),
                AfterMatchSkipStrategy.skipToNext(), List.of("[1, 2, 3] 4", "[2, 3] 4", "[3] 4"),
                AfterMatchSkipStrategy.skipPastLastEvent(), List.of("[1, 2, 3] 4"),
                AfterMatchSkipStrategy.skipToFirst("hot"), List.of("[1, 2, 3] 4", "[1, 2] 4", "[1] 4", "[2, 3] 4", "[2] 4", "[3] 4"),
                AfterMatchSkipStrategy.skipToLast("hot"), List.of("[1, 2, 3] 4", "[3] 4"));
        // end::skip[]
        for (Map.Entry<AfterMatchSkipStrategy, List<String>> e : expected.entrySet()) {
            Pattern<SensorReading> p = Pattern.<SensorReading>begin("hot", e.getKey()).where(r -> r.sensor() == Sensor.TEMPERATURE).oneOrMore()
                    .followedBy("drop").where(r -> r.sensor() == Sensor.PRESSURE);
            Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
            CollectSink<String> found = new CollectSink<>();
            List<SensorReading> input = List.of(temp(90, 1), temp(91, 2), temp(92, 3),
                    new SensorReading("oven-1", Sensor.PRESSURE, 3.0, 4, 4));
            CEP.pattern(pipeline.fromSource(new CollectionSource<>(input),
                            WatermarkStrategy.<SensorReading>monotonous().withTimestampAssigner((r, ts) -> r.eventTime()), "oven")
                            .keyBy(SensorReading::machineId), p)
                    .select(m -> m.get("hot").stream().map(SensorReading::seq).toList() + " " + m.get("drop").get(0).seq())
                    .sinkTo(found);
            pipeline.execute("skip " + e.getKey());
            assertThat(found.results()).as(e.getKey().toString()).containsExactlyElementsOf(e.getValue());
        }
    }

    private static SensorReading temp(double value, long time) {
        return new SensorReading("oven-1", Sensor.TEMPERATURE, value, time, time);
    }
}
