package io.millrace.server.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.sim.FactoryEvent;
import io.millrace.sim.FactorySimulator;
import io.millrace.sim.Sensor;
import io.millrace.sim.SensorReading;
import io.millrace.sim.SimulatorConfig;
import io.millrace.sim.SpindleEvent;
import io.millrace.sim.SpindleState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FactoryEventCodecTest {

    @Test
    void everyEventOfASimulatorRun_roundTrips() throws Exception {
        SimulatorConfig config = SimulatorConfig.builder().seed(11).machines(3).eventsPerSecond(200)
                .duration(Duration.ofMinutes(2)).unlimitedSpeed().build();
        List<FactoryEvent> events = new ArrayList<>();
        io.millrace.api.Pipeline p = io.millrace.api.Pipeline.create(new io.millrace.api.PipelineConfig().parallelism(1));
        io.millrace.api.sink.CollectSink<FactoryEvent> sink = new io.millrace.api.sink.CollectSink<>();
        FactorySimulator sim = new FactorySimulator(config);
        p.fromSource(sim, sim.watermarkStrategy(), "sim").sinkTo(sink);
        p.execute("codec");
        events.addAll(sink.results());

        assertThat(events).hasSizeGreaterThan(100);
        assertThat(events).anyMatch(e -> e instanceof SpindleEvent);
        for (FactoryEvent e : events) {
            assertThat(FactoryEventCodec.decode(FactoryEventCodec.encode(e))).isEqualTo(e);
        }
    }

    @Test
    void encodedForm_isDocumentedText() {
        assertThat(new String(FactoryEventCodec.encode(new SensorReading("M001", Sensor.PRESSURE, 2.5, 1_000, 7)), StandardCharsets.UTF_8))
                .isEqualTo("R|M001|PRESSURE|2.5|1000|7");
        assertThat(new String(FactoryEventCodec.encode(new SpindleEvent("M002", SpindleState.RUNNING, 2_000, 1)), StandardCharsets.UTF_8))
                .isEqualTo("S|M002|RUNNING|2000|1");
    }

    @Test
    void badInput_isRejectedNamingWhatIsWrong() {
        assertThatThrownBy(() -> decode("R|M001|HUMIDITY|2.5|1000|7")).hasMessageContaining("unknown sensor 'HUMIDITY'");
        assertThatThrownBy(() -> decode("R|M001|PRESSURE|high|1000|7")).hasMessageContaining("value is not a number: 'high'");
        assertThatThrownBy(() -> decode("S|M001|RUNNING|soon|1")).hasMessageContaining("event time is not an integer: 'soon'");
        assertThatThrownBy(() -> decode("hello")).hasMessageContaining("not a factory event").hasMessageContaining("'hello'");
        assertThatThrownBy(() -> FactoryEventCodec.decode(null)).hasMessageContaining("tombstone");
    }

    private static FactoryEvent decode(String text) {
        return FactoryEventCodec.decode(text.getBytes(StandardCharsets.UTF_8));
    }
}
