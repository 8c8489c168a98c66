package io.millrace.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.format.JsonRowFormat;
import io.millrace.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The MQTT sink against a real Mosquitto broker: topics from a field, QoS levels, retained messages, message ids. */
class MqttSinkIT {
    @TempDir
    static Path brokerDir;
    static Mosquitto broker;

    @TempDir
    Path dir;

    static final RowType ALARM = RowType.builder()
            .field("machine", FieldType.STRING)
            .field("at", FieldType.TIMESTAMP)
            .field("celsius", FieldType.DOUBLE)
            .build();

    @BeforeAll
    static void startBroker() throws Exception {
        broker = Mosquitto.start(brokerDir.resolve("broker"));
    }

    @AfterAll
    static void stopBroker() throws Exception {
        broker.close();
    }

    private static List<Row> alarms(int n) {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(Row.of(ALARM, "m" + (i % 4), 1_000L + i, 80.0 + i));
        }
        return rows;
    }

    @ParameterizedTest(name = "QoS {0}")
    @ValueSource(ints = {0, 1, 2})
    void whenRowsArePublishedWithATopicFromAField_thenEachArrivesOnItsMachinesTopic_withItsMessageId(int qos) throws Exception {
        String prefix = "sink" + qos;
        List<Row> input = alarms(200);
        try (TestClient subscriber = TestClient.connect(broker, prefix + "-subscriber")) {
            subscriber.subscribe(prefix + "/alarms/+", 1);
            PipelineConfig config = new PipelineConfig().parallelism(2);
            config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(200));
            Pipeline pipeline = Pipeline.create(config);
            String server = "127.0.0.1";
            int port = broker.port();
            // tag::sink[]
            MqttSink<Row> alarms = MqttSink.builder(JsonRowFormat.of(ALARM))             // the payload: one JSON object per row
                    .server(MqttServer.of(server, port))
                    .topic(row -> prefix + "/alarms/" + row.getString("machine"))       // the topic from a field
                    .qos(qos)
                    .messageId((row, ts) -> row.getString("machine") + "@" + row.getTimestamp("at"))  // user property "message-id"
                    .build();
            // end::sink[]
            pipeline.fromCollection(input).rebalance().sinkTo(alarms);
            pipeline.execute("alarms");
            Await.until("200 messages", () -> subscriber.received().size() >= 200);
            List<Mqtt5Publish> got = subscriber.received();
            assertThat(got).hasSize(200);
            List<String> expected = new ArrayList<>();
            JsonRowFormat json = JsonRowFormat.of(ALARM);
            for (Row r : input) {
                expected.add(prefix + "/alarms/" + r.getString("machine") + " " + new String(json.encode(r), java.nio.charset.StandardCharsets.UTF_8)
                        + " " + r.getString("machine") + "@" + r.getTimestamp("at"));
            }
            assertThat(got).extracting(m -> m.getTopic() + " " + TestClient.text(m) + " " + m.getUserProperties().asList().stream()
                    .filter(u -> u.getName().toString().equals(MqttSink.MESSAGE_ID_PROPERTY)).findFirst().orElseThrow().getValue())
                    .containsExactlyInAnyOrderElementsOf(expected);
            assertThat(got).allSatisfy(m -> assertThat(m.getQos().getCode()).isEqualTo(Math.min(qos, 1)));
        }
    }

    @Test
    void whenPublishedRetained_thenALaterSubscriberGetsTheLastMessageOfEveryTopic() throws Exception {
        String prefix = "retained";
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
        pipeline.fromCollection(alarms(12)).sinkTo(MqttSink.builder(JsonRowFormat.of(ALARM))
                .server(broker.server())
                .topic(row -> prefix + "/state/" + row.getString("machine"))
                .retained(true)
                .build());
        pipeline.execute("retained");
        try (TestClient late = TestClient.connect(broker, prefix + "-late")) {
            late.subscribe(prefix + "/state/+", 1);
            Await.until("the four retained messages", () -> late.received().size() >= 4);
            assertThat(late.received()).allSatisfy(m -> assertThat(m.isRetain()).isTrue());
            assertThat(late.received()).extracting(m -> m.getTopic() + "=" + JsonRowFormat.of(ALARM).decode(m.getPayloadAsBytes()).getDouble("celsius"))
                    .containsExactlyInAnyOrder(prefix + "/state/m0=88.0", prefix + "/state/m1=89.0", prefix + "/state/m2=90.0",
                            prefix + "/state/m3=91.0");
        }
    }

    @Test
    void whenATopicHasAWildcard_thenTheSinkFailsNamingIt() {
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
        pipeline.fromCollection(alarms(1)).sinkTo(MqttSink.builder(JsonRowFormat.of(ALARM))
                .server(broker.server())
                .topic(row -> "plant/+/" + row.getString("machine"))
                .build());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> pipeline.execute("wildcard topic"))
                .hasStackTraceContaining("topic 'plant/+/m0' has a wildcard");
    }

    /** Takes its time per record, so that the broker can be restarted while the sink publishes. */
    static final class Slow implements io.millrace.api.functions.MapFunction<Row, Row> {
        @Override
        public Row map(Row value) {
            java.util.concurrent.locks.LockSupport.parkNanos(2_000_000); // pacing the job, not waiting for a condition
            return value;
        }
    }

    @Test
    void whenTheBrokerRestartsWhileTheSinkPublishes_thenEveryRecordArrivesAtLeastOnce() throws Exception {
        String prefix = "sinkbounce";
        java.util.Set<String> received = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.concurrent.atomic.AtomicInteger deliveries = new java.util.concurrent.atomic.AtomicInteger();
        var subscriber = com.hivemq.client.mqtt.MqttClient.builder().useMqttVersion5().identifier(prefix + "-subscriber")
                .serverHost("127.0.0.1").serverPort(broker.port())
                .automaticReconnect().initialDelay(50, java.util.concurrent.TimeUnit.MILLISECONDS)
                .maxDelay(500, java.util.concurrent.TimeUnit.MILLISECONDS).applyAutomaticReconnect().buildAsync();
        subscriber.publishes(com.hivemq.client.mqtt.MqttGlobalPublishFilter.ALL, m -> {
            received.add(new String(m.getPayloadAsBytes(), java.nio.charset.StandardCharsets.UTF_8));
            deliveries.incrementAndGet();
        });
        // a persistent session, resumed by every reconnect of the subscriber, so that the broker's restart loses it nothing
        TestClient.prepareSession(broker, prefix + "-subscriber", 1, prefix + "/#");
        subscriber.connectWith().cleanStart(false).sessionExpiryInterval(600).send().get();
        List<Row> input = alarms(1500);
        PipelineConfig config = new PipelineConfig().parallelism(1)
                .restartStrategy(io.millrace.api.RestartStrategy.fixedDelay(10, Duration.ofMillis(200)));
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(200));
        Pipeline pipeline = Pipeline.create(config);
        pipeline.fromCollection(input).map(new Slow()).sinkTo(MqttSink.builder(JsonRowFormat.of(ALARM))
                .server(broker.server())
                .topic(row -> prefix + "/" + row.getString("machine"))
                .ackTimeout(Duration.ofSeconds(10))
                .build());
        io.millrace.api.JobHandle job = pipeline.executeAsync("sink bounce");
        try {
            Await.until("a part of the output", Duration.ofSeconds(30), () -> received.size() >= 200);
            broker.restart();
            assertThat(job.await(Duration.ofSeconds(60))).as("the job finishes").isNotNull();
            Await.until("every record, " + received.size() + " so far", Duration.ofSeconds(30), () -> received.size() >= input.size());
        } finally {
            job.cancel();
            subscriber.disconnect();
        }
        JsonRowFormat json = JsonRowFormat.of(ALARM);
        List<String> expected = new ArrayList<>();
        for (Row r : input) {
            expected.add(new String(json.encode(r), java.nio.charset.StandardCharsets.UTF_8));
        }
        assertThat(received).containsExactlyInAnyOrderElementsOf(expected);
        org.slf4j.LoggerFactory.getLogger(MqttSinkIT.class).info("sink across a broker restart: {} records, {} deliveries, {} restarts of the job",
                input.size(), deliveries.get(), job.metrics().restarts());
    }
}
