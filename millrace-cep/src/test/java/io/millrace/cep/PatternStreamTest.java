package io.millrace.cep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.DataStream;
import io.millrace.api.OutputTag;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.source.CollectionSource;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.sim.Sensor;
import io.millrace.sim.SensorReading;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stream API in pipelines: flatSelect with time-outs, process with the key and timestamp, errors at CEP.pattern. */
class PatternStreamTest {
    private static final Pattern<SensorReading> SPIKE_THEN_DROPS = Pattern.<SensorReading>begin("spike")
            .where(r -> r.sensor() == Sensor.TEMPERATURE && r.value() > 85)
            .followedBy("drops").where(r -> r.sensor() == Sensor.PRESSURE && r.value() < 4).times(2).consecutive()
            .within(Duration.ofSeconds(30));

    private static final List<SensorReading> READINGS = List.of(
            CepOperatorTest.temp("press-1", 90, 1_000), CepOperatorTest.pressure("press-1", 3.5, 2_000),
            CepOperatorTest.pressure("press-1", 3.4, 3_000),                             // spike, then two drops in a row
            CepOperatorTest.temp("press-2", 95, 1_000), CepOperatorTest.pressure("press-2", 3.1, 2_000),   // one drop, then nothing
            CepOperatorTest.temp("press-3", 95, 1_000), CepOperatorTest.pressure("press-3", 3.1, 2_000),
            CepOperatorTest.temp("press-3", 70, 3_000), CepOperatorTest.pressure("press-3", 3.0, 4_000));   // drops not in a row

    private static DataStream<SensorReading> readings(Pipeline pipeline, List<SensorReading> input) {
        return pipeline.fromSource(new CollectionSource<>(input),
                WatermarkStrategy.<SensorReading>monotonous().withTimestampAssigner((r, ts) -> r.eventTime()), "readings");
    }

    @Test
    void flatSelect_emitsEveryRecordItGives_andTimeoutsGoToTheirTag() throws Exception {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        OutputTag<String> timedOut = new OutputTag<>("timed-out");
        CollectSink<String> drops = new CollectSink<>();
        CollectSink<String> timeouts = new CollectSink<>();
        DataStream<String> out = CEP.pattern(readings(pipeline, READINGS).keyBy(SensorReading::machineId), SPIKE_THEN_DROPS)
                .flatSelect(timedOut, (partial, at) -> partial.get("spike").get(0).machineId() + " timed out at " + at,
                        (match, collector) -> {
                            for (SensorReading r : match.get("drops")) {
                                collector.collect(r.machineId() + " " + r.value());
                            }
                        });
        out.sinkTo(drops);
        out.getSideOutput(timedOut).sinkTo(timeouts);
        pipeline.execute("flat select");

        assertThat(drops.results()).containsExactlyInAnyOrder("press-1 3.5", "press-1 3.4");
        assertThat(timeouts.results()).containsExactly("press-2 timed out at 31000");
    }

    static final class KeyAndTime extends PatternProcessFunction<SensorReading, String> {
        @Override
        public void processMatch(java.util.Map<String, List<SensorReading>> match, Context ctx,
                io.millrace.api.functions.Collector<String> collector) {
            collector.collect(ctx.currentKey() + " at " + ctx.timestamp());
        }
    }

    @Test
    void process_seesTheKeyAndTheTimestampOfTheLastEvent() throws Exception {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> matches = new CollectSink<>();
        DataStream<String> out = CEP.pattern(readings(pipeline, READINGS).keyBy(SensorReading::machineId), SPIKE_THEN_DROPS)
                .process(new KeyAndTime());
        out.sinkTo(matches);
        pipeline.execute("process");

        assertThat(matches.results()).containsExactly("press-1 at 3000");
        assertThat(matches.timestamps()).containsExactly(3_000L);
    }

    @Test
    void aPatternOnAStreamThatIsNotKeyed_cannotBeMade_andAnUnrunnablePatternFailsAtCepPattern() {
        Pipeline pipeline = Pipeline.create();
        var keyed = readings(pipeline, READINGS).keyBy(SensorReading::machineId);
        assertThatThrownBy(() -> CEP.pattern(keyed, Pattern.<SensorReading>begin("spike").notNext("calm")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot end a pattern");
    }
}
