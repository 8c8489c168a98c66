package io.millrace.server.demo;

import io.millrace.api.DataStream;
import io.millrace.api.KeyedStream;
import io.millrace.api.OutputTag;
import io.millrace.cep.AfterMatchSkipStrategy;
import io.millrace.cep.CEP;
import io.millrace.cep.Pattern;
import io.millrace.sim.Sensor;
import io.millrace.sim.SensorReading;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The demo's alert: a machine's temperature above 80 °C, then (not necessarily next) its pressure below
 * 4.5 bar, both within 30 s, in event time. The simulator's injected anomalies lift the temperature to at
 * least 85 °C for 10 s and drop the pressure to at most 3.8 bar for 10 s, 5–20 s after the spike starts;
 * normal values stay within 60–70 °C and 5.7–6.3 bar, so the thresholds sit between the two.
 */
public final class SpikeThenDrop {
    /** Name of the pattern operator in the demo's pipeline and its metrics. */
    public static final String OPERATOR = "spike-then-drop";
    /** The longest a match may take, from the spike reading to the drop reading: the pattern's {@code within}. */
    public static final Duration WITHIN = pattern().within();

    private SpikeThenDrop() {}

    /**
     * The pattern. Skipping past the last event of a match makes one anomaly one alert: the other hot readings
     * of the same spike, which would match the same drop, start no further match.
     */
    public static Pattern<SensorReading> pattern() {
        // tag::pattern[]
        return Pattern.<SensorReading>begin("spike", AfterMatchSkipStrategy.skipPastLastEvent())
                .where(r -> r.sensor() == Sensor.TEMPERATURE && r.value() > 80)
                .followedBy("drop").where(r -> r.sensor() == Sensor.PRESSURE && r.value() < 4.5)
                .within(Duration.ofSeconds(30));
        // end::pattern[]
    }

    /**
     * One alert per match of {@link #pattern()} over each machine's readings, in event time; readings already
     * behind the watermark when they arrive are not matched and go to the side output {@code late}.
     */
    public static DataStream<Alert> alerts(KeyedStream<String, SensorReading> readingsByMachine, OutputTag<SensorReading> late) {
        return CEP.pattern(readingsByMachine, pattern()).sideOutputLateData(late).select(SpikeThenDrop::toAlert);
    }

    static Alert toAlert(Map<String, List<SensorReading>> match) {
        SensorReading spike = match.get("spike").get(0);
        SensorReading drop = match.get("drop").get(0);
        return new Alert(spike.machineId(), spike.eventTime(), spike.value(), drop.eventTime(), drop.value());
    }
}
