package io.millrace.connector.mqtt;

import static io.millrace.connector.mqtt.SparkplugPayloads.payload;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.Row;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.source.BadRecord;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.mqtt.sparkplug.SparkplugB;
import io.millrace.connector.mqtt.sparkplug.SparkplugMessage;
import io.millrace.connector.mqtt.sparkplug.SparkplugMetrics;
import io.millrace.format.FormatException;
import io.millrace.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sparkplug B through a real Mosquitto broker: births, data by alias, deaths; payloads written by the test in the
 * specification's protobuf layout ({@link SparkplugPayloads}).
 */
class SparkplugIT {
    @TempDir
    static Path brokerDir;
    static Mosquitto broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = Mosquitto.start(brokerDir.resolve("broker"));
    }

    @AfterAll
    static void stopBroker() throws Exception {
        broker.close();
    }

    @Test
    void whenSignedAndUnsignedValuesAreDecoded_thenTheyKeepTheirSign_andADamagedPayloadNamesItsByte() {
        byte[] bytes = payload(1000, 0)
                .metric("int8", 0, 1, -5)
                .metric("int32", 1, 3, -100_000)
                .metric("uint32", 2, 7, (int) 4_000_000_000L)
                .metric("int64", 3, 4, -7L)
                .metric("float", 4, 9, 1.5f)
                .metric("double", 5, 10, 2.25)
                .metric("bool", 6, 11, true)
                .metric("text", 7, 12, "running")
                .metric("missing", 8, 3, null)
                .bytes();
        SparkplugMessage m = SparkplugB.decode("spBv1.0/plant7/NBIRTH/gw1", bytes);
        assertThat(m.group()).isEqualTo("plant7");
        assertThat(m.edgeNode()).isEqualTo("gw1");
        assertThat(m.device()).isNull();
        assertThat(m.timestamp()).isEqualTo(1000);
        assertThat(m.metrics()).extracting(SparkplugMessage.Metric::value)
                .containsExactly(-5L, -100_000L, 4_000_000_000L, -7L, 1.5, 2.25, true, "running", null);
        assertThat(m.metrics().get(8).isNull()).isTrue();
        assertThatThrownBy(() -> SparkplugB.decode("spBv1.0/plant7/NBIRTH/gw1", java.util.Arrays.copyOf(bytes, 20)))
                .isInstanceOf(FormatException.class).hasMessageContaining("at byte");
        assertThatThrownBy(() -> SparkplugB.decode("spBv1.0/plant7/DDATA/gw1", bytes))
                .hasMessage("topic 'spBv1.0/plant7/DDATA/gw1': a DDATA message needs a device id level");
        assertThatThrownBy(() -> SparkplugB.decode("spBv1.0/plant7/NCMD/gw1", bytes))
                .hasMessageContaining("message type 'NCMD' is not one of");
    }

    @Test
    void whenANodeAndItsDeviceAreBornSendByAliasAndDie_thenEachMetricIsARowWithItsName_andDeathMarksThemStale() throws Exception {
        TestClient.prepareSession(broker, "spb-0", 1, "spBv1.0/plant7/#");
        PipelineConfig config = new PipelineConfig().parallelism(1);
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(200));
        Pipeline pipeline = Pipeline.create(config);
        CollectSink<Row> rows = new CollectSink<>();
        CollectSink<BadRecord> bad = new CollectSink<>();
        MqttServer server = broker.server();
        // tag::sparkplug[]
        MqttSource<SparkplugMessage> source = MqttSource.builder(SparkplugB.messages())   // topic and protobuf payload
                .server(server)
                .topicFilters("spBv1.0/plant7/#")
                .clientIdPrefix("spb")
                .build();
        var messages = pipeline.fromSource(source, WatermarkStrategy.<SparkplugMessage>noWatermarks(), BadRecordPolicy.DEAD_LETTER, "sparkplug");
        messages.keyBy(SparkplugMessage::edgeNodeKey)          // aliases are per edge node
                .process(new SparkplugMetrics())               // one SparkplugB.METRIC row per metric
                .sinkTo(rows);
        messages.getSideOutput(BadRecord.DEAD_LETTERS).sinkTo(bad);
        // end::sparkplug[]
        JobHandle job = pipeline.executeAsync("sparkplug");
        try (TestClient publisher = TestClient.connect(broker, "spb-publisher")) {
            String node = "spBv1.0/plant7/";
            publisher.publish(node + "NBIRTH/gw1", payload(1000, 0)
                    .metric("bdSeq", 0, 8, 3L).metric("uptime", 1, 4, 0L).bytes(), 1, false);
            publisher.publish(node + "DBIRTH/gw1/press1", payload(1001, 1)
                    .metric("temperature", 10, 10, 20.0).metric("state", 11, 12, "idle").metric("count", 12, 3, -3).bytes(), 1, false);
            publisher.publish(node + "DDATA/gw1/press1", payload(1002, 2)
                    .metric(null, 10, 0, 71.5).metric(null, 12, 0, 42).metric(null, 99, 4, 1L).bytes(), 1, false);
            publisher.publish(node + "DDATA/gw1/press1", new byte[] {0x12, 0x7f, 0x01}, 1, false);   // a metric longer than the payload
            publisher.publish(node + "NDATA/gw1", payload(1003, 3).metric(null, 1, 0, 5000L).bytes(), 1, false);
            publisher.publish(node + "DDEATH/gw1/press1", payload(1004, 4).bytes(), 1, false);
            publisher.publish(node + "NDEATH/gw1", payload(1005, 5).metric("bdSeq", -1, 8, 3L).bytes(), 1, false);
            Await.until("the rows of the node's death", () -> rows.results().stream().filter(r -> r.getString("message_type").equals("NDEATH")).count() >= 2);
        } finally {
            job.cancel();
            job.await();
        }
        List<String> got = rows.results().stream().map(r -> r.getString("message_type") + " " + r.getField("device") + " " + r.getField("metric")
                + " " + r.getString("datatype") + " " + value(r) + (r.getBoolean("stale") ? " stale" : "")).toList();
        assertThat(got).containsExactly(
                "NBIRTH null bdSeq UInt64 3",
                "NBIRTH null uptime Int64 0",
                "DBIRTH press1 temperature Double 20.0",
                "DBIRTH press1 state String idle",
                "DBIRTH press1 count Int32 -3",
                "DDATA press1 temperature Double 71.5",
                "DDATA press1 count Int32 42",
                "DDATA press1 null Int64 1",
                "NDATA null uptime Int64 5000",
                "DDEATH press1 count Int32 null stale",
                "DDEATH press1 state String null stale",
                "DDEATH press1 temperature Double null stale",
                "NDEATH null bdSeq UInt64 null stale",
                "NDEATH null uptime Int64 null stale");
        assertThat(bad.results()).hasSize(1);
        assertThat(bad.results().get(0).location()).isEqualTo("topic spBv1.0/plant7/DDATA/gw1/press1, client spb-0");
        assertThat(bad.results().get(0).reason()).contains("Sparkplug B payload at byte");
    }

    private JobHandle aliasJob(CollectSink<Row> rows) {
        PipelineConfig config = new PipelineConfig().parallelism(1);
        config.checkpoints().directory(dir.resolve("restore-checkpoints")).periodic(false);
        Pipeline pipeline = Pipeline.create(config);
        MqttSource<SparkplugMessage> source = MqttSource.builder(SparkplugB.messages()).server(broker.server())
                .topicFilters("spBv1.0/plant8/#").clientIdPrefix("spb-restore").build();
        pipeline.fromSource(source, WatermarkStrategy.<SparkplugMessage>noWatermarks(), "sparkplug").uid("sparkplug")
                .keyBy(SparkplugMessage::edgeNodeKey)
                .process(new SparkplugMetrics()).uid("metrics")
                .sinkTo(rows);
        return pipeline.executeAsync("sparkplug restore");
    }

    @Test
    void whenTheJobIsRestoredFromACheckpoint_thenAliasesOfBirthsBeforeItStillResolve() throws Exception {
        TestClient.prepareSession(broker, "spb-restore-0", 1, "spBv1.0/plant8/#");
        CollectSink<Row> before = new CollectSink<>();
        JobHandle first = aliasJob(before);
        try (TestClient publisher = TestClient.connect(broker, "spb-restore-publisher")) {
            publisher.publish("spBv1.0/plant8/NBIRTH/gw2", payload(1, 0).metric("uptime", 1, 4, 0L).bytes(), 1, false);
            publisher.publish("spBv1.0/plant8/DBIRTH/gw2/oven", payload(2, 1).metric("temperature", 7, 10, 180.0).bytes(), 1, false);
            Await.until("the births", () -> before.size() >= 2);
            first.triggerCheckpoint().get(30, java.util.concurrent.TimeUnit.SECONDS);
        } finally {
            first.cancel();
            first.await();
        }
        CollectSink<Row> after = new CollectSink<>();
        JobHandle second = aliasJob(after);   // the same checkpoint directory: restored from the checkpoint above
        try (TestClient publisher = TestClient.connect(broker, "spb-restore-publisher")) {
            publisher.publish("spBv1.0/plant8/DDATA/gw2/oven", payload(3, 2).metric(null, 7, 0, 181.5).bytes(), 1, false);
            Await.until("the data message", () -> after.size() >= 1);
        } finally {
            second.cancel();
            second.await();
        }
        assertThat(after.results()).extracting(r -> r.getString("metric") + " " + r.getString("datatype") + " " + r.getDouble("double_value"))
                .containsExactly("temperature Double 181.5");
    }

    private static Object value(Row r) {
        for (String f : new String[] {"long_value", "double_value", "boolean_value", "string_value"}) {
            if (r.getField(f) != null) {
                return r.getField(f);
            }
        }
        return null;
    }
}
