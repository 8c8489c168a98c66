package io.millrace.server.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.connector.mqtt.MqttMessage;
import io.millrace.connector.mqtt.Qos;
import io.millrace.connector.mqtt.sparkplug.SparkplugB;
import io.millrace.connector.mqtt.sparkplug.SparkplugMessage;
import io.millrace.format.FormatException;
import io.millrace.sim.FactoryEvent;
import io.millrace.sim.Sensor;
import io.millrace.sim.SensorReading;
import io.millrace.sim.SpindleEvent;
import io.millrace.sim.SpindleState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The demo's MQTT payloads: JSON events read back as they were written, Sparkplug B births before data. */
class MqttDemoPayloadsTest {

    @Test
    void jsonMessages_decodeToTheEventsTheyWereMadeOf() {
        Random random = new Random(38L);
        for (int i = 0; i < 500; i++) {
            String machine = String.format("M%03d", 1 + random.nextInt(20));
            FactoryEvent e = random.nextInt(5) == 0
                    ? new SpindleEvent(machine, random.nextBoolean() ? SpindleState.RUNNING : SpindleState.STOPPED, random.nextLong() & Long.MAX_VALUE >>> 20, i)
                    : new SensorReading(machine, Sensor.values()[random.nextInt(3)], random.nextGaussian() * 50, random.nextLong() & Long.MAX_VALUE >>> 20, i);
            MqttDemo.Outgoing o = MqttDemo.json(e);
            assertThat(o.topic()).startsWith("factory/" + machine + "/");
            assertThat(MqttDemo.jsonEvent(message(o.topic(), o.payload()))).isEqualTo(e);
        }
    }

    @Test
    void aMessageOutsideTheLayout_isAFormatErrorNamingTheTopic() {
        byte[] reading = "{\"machine\":\"M001\",\"value\":1.5,\"at\":1,\"seq\":2}".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> MqttDemo.jsonEvent(message("factory/M001/humidity", reading)))
                .isInstanceOf(FormatException.class).hasMessageContaining("factory/M001/humidity").hasMessageContaining("humidity");
        assertThatThrownBy(() -> MqttDemo.jsonEvent(message("plant/M001", reading)))
                .isInstanceOf(FormatException.class).hasMessageContaining("'plant/M001'");
        assertThatThrownBy(() -> MqttDemo.jsonEvent(message("factory/M001/spindle",
                "{\"machine\":\"M001\",\"state\":\"SPINNING\",\"at\":1,\"seq\":2}".getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(FormatException.class).hasMessageContaining("SPINNING");
    }

    @Test
    void sparkplugFeed_sendsTheNodeBirthFirst_aDeviceBirthBeforeEachMachinesData_andDataByAliasOnly() {
        MqttDemo.SparkplugFeed feed = new MqttDemo.SparkplugFeed();
        List<MqttDemo.Outgoing> out = new ArrayList<>();
        List<FactoryEvent> events = List.of(
                new SensorReading("M001", Sensor.TEMPERATURE, 71.5, 1_000, 0),
                new SensorReading("M002", Sensor.VIBRATION, 3.25, 1_010, 1),
                new SpindleEvent("M001", SpindleState.STOPPED, 1_020, 2));
        for (FactoryEvent e : events) {
            feed.processElement(e, null, out::add);
        }
        List<SparkplugMessage> sent = out.stream().map(o -> SparkplugB.decode(o.topic(), o.payload())).toList();
        assertThat(sent).extracting(m -> m.type() + " " + m.device()).containsExactly(
                "NBIRTH null", "DBIRTH M001", "DDATA M001", "DBIRTH M002", "DDATA M002", "DDATA M001");
        assertThat(sent).extracting(SparkplugMessage::seq).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(out.get(2).topic()).isEqualTo("spBv1.0/factory/DDATA/gateway/M001");

        SparkplugMessage.Metric temperature = sent.get(2).metrics().get(0);
        assertThat(temperature.name()).isNull();
        assertThat(temperature.value()).isEqualTo(71.5);
        assertThat(temperature.timestamp()).isEqualTo(1_000);
        // the alias is the one the machine's birth gave the metric
        assertThat(sent.get(1).metrics()).filteredOn(m -> m.alias() == temperature.alias()).extracting(SparkplugMessage.Metric::name)
                .containsExactly("Temperature");
        SparkplugMessage.Metric spindle = sent.get(5).metrics().get(0);
        assertThat(sent.get(1).metrics()).filteredOn(m -> m.alias() == spindle.alias()).extracting(SparkplugMessage.Metric::name)
                .containsExactly("Spindle");
        assertThat(spindle.value()).isEqualTo("STOPPED");
        // aliases are unique within the edge node
        assertThat(sent.get(3).metrics()).extracting(SparkplugMessage.Metric::alias)
                .doesNotContainAnyElementsOf(sent.get(1).metrics().stream().map(SparkplugMessage.Metric::alias).toList());
    }

    private static MqttMessage message(String topic, byte[] payload) {
        return new MqttMessage(topic, payload, Qos.AT_LEAST_ONCE, false, List.of(), "test-0", 0L);
    }
}
