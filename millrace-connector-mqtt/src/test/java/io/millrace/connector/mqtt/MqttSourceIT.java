package io.millrace.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.source.BadRecord;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.format.BytesDecoder;
import io.millrace.format.JsonRowFormat;
import io.millrace.testing.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.Windows;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The MQTT source against a real Mosquitto broker: wildcards, QoS levels, both protocol versions, shared subscriptions, bad payloads. */
class MqttSourceIT {
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

    private Pipeline pipeline(int parallelism) {
        PipelineConfig config = new PipelineConfig().parallelism(parallelism);
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(200));
        return Pipeline.create(config);
    }

    @ParameterizedTest(name = "QoS {0}")
    @ValueSource(ints = {0, 1, 2})
    void whenSubscribedWithWildcards_thenExactlyTheMatchingMessagesArrive_atTheRequestedQos(int qos) throws Exception {
        String p = "wild" + qos;
        TestClient.prepareSession(broker, p + "-0", qos, p + "/+/temperature", p + "/line2/#");
        Pipeline pipeline = pipeline(1);
        // tag::wildcards[]
        MqttSource<MqttMessage> source = MqttSource.builder(MqttMessageDeserializer.messages())
                .server(MqttServer.of("127.0.0.1", broker.port()))
                .topicFilters(p + "/+/temperature", p + "/line2/#")   // '+': one level, '#': this level and all below
                .qos(qos)
                .clientIdPrefix(p)                                    // sessions "<prefix>-0", "<prefix>-1"...
                .build();
        // end::wildcards[]
        CollectSink<MqttMessage> sink = new CollectSink<>();
        pipeline.fromSource(source, WatermarkStrategy.<MqttMessage>noWatermarks(), "mqtt").sinkTo(sink);
        JobHandle job = pipeline.executeAsync("wildcards");
        List<String> expected = new ArrayList<>();
        try (TestClient publisher = TestClient.connect(broker, p + "-publisher")) {
            String[] topics = {p + "/m1/temperature", p + "/m2/temperature", p + "/m1/pressure", p + "/line2/m3/speed", p + "/line2",
                    p + "/line3/m4/speed", p + "/m1/temperature/raw"};
            boolean[] matches = {true, true, false, true, true, false, false};
            for (int i = 0; i < 20; i++) {
                for (int t = 0; t < topics.length; t++) {
                    publisher.publish(topics[t], topics[t] + "#" + i, qos);
                    if (matches[t]) {
                        expected.add(topics[t] + "#" + i);
                    }
                }
            }
            publisher.publish(p + "/end/temperature", "end", qos);
            Await.until("the last message", () -> sink.results().stream().anyMatch(m -> m.topic().endsWith("/end/temperature")));
        } finally {
            job.cancel();
            job.await();
        }
        List<MqttMessage> got = sink.results().stream().filter(m -> !m.topic().endsWith("/end/temperature")).toList();
        assertThat(got).extracting(MqttMessage::payloadText).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(got).allSatisfy(m -> {
            assertThat(m.qos().level()).isEqualTo(qos);
            assertThat(m.payloadText()).startsWith(m.topic() + "#");
            assertThat(m.clientId()).isEqualTo(p + "-0");
        });
    }

    @Test
    void whenTheClientSpeaksMqtt311_thenAQos1SubscriptionDeliversEveryMessage() throws Exception {
        String p = "v311";
        TestClient.prepareSession311(broker, p + "-0", 1, p + "/#");
        Pipeline pipeline = pipeline(1);
        MqttSource<String> source = MqttSource.builder(MqttMessageDeserializer.values(BytesDecoder.utf8()))
                .server(MqttServer.of("127.0.0.1", broker.port()).withVersion(MqttVersion.MQTT_3_1_1))
                .topicFilters(p + "/#").qos(1).clientIdPrefix(p).build();
        CollectSink<String> sink = new CollectSink<>();
        pipeline.fromSource(source, WatermarkStrategy.<String>noWatermarks(), "mqtt").sinkTo(sink);
        List<String> expected = new ArrayList<>();
        try (TestClient publisher = TestClient.connect(broker, p + "-publisher")) {
            for (int i = 0; i < 300; i++) {
                publisher.publish(p + "/m" + (i % 3), "v" + i, 1);
                expected.add("v" + i);
            }
        }
        JobHandle job = pipeline.executeAsync("mqtt 3.1.1");
        try {
            Await.until("300 messages", () -> sink.size() >= 300);
        } finally {
            job.cancel();
            job.await();
        }
        assertThat(sink.results()).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void whenTwoSubtasksShareASubscription_thenEveryMessageIsReadOnce_andBothSubtasksRead() throws Exception {
        String p = "shared";
        String filter = p + "/+/temperature";
        TestClient.prepareSession(broker, p + "-0", 1, "$share/line-1/" + filter);
        TestClient.prepareSession(broker, p + "-1", 1, "$share/line-1/" + filter);
        Pipeline pipeline = pipeline(2);
        // tag::shared[]
        MqttSource<MqttMessage> source = MqttSource.builder(MqttMessageDeserializer.messages())
                .server(MqttServer.of("127.0.0.1", broker.port()))
                .topicFilters(p + "/+/temperature")
                .sharedSubscription("line-1")      // each session subscribes to $share/line-1/<filter>
                .clientIdPrefix(p)                 // one session per subtask: shared-0, shared-1
                .build();
        // end::shared[]
        CollectSink<MqttMessage> sink = new CollectSink<>();
        pipeline.fromSource(source, WatermarkStrategy.<MqttMessage>noWatermarks(), "mqtt").sinkTo(sink);
        JobHandle job = pipeline.executeAsync("shared");
        List<String> expected = new ArrayList<>();
        try (TestClient publisher = TestClient.connect(broker, p + "-publisher")) {
            for (int i = 0; i < 400; i++) {
                String topic = p + "/m" + (i % 8) + "/temperature";
                publisher.publish(topic, "r" + i, 1);
                expected.add("r" + i);
            }
            Await.until("400 messages", Duration.ofSeconds(30), () -> sink.size() >= 400);
        } finally {
            job.cancel();
            job.await();
        }
        assertThat(sink.results()).extracting(MqttMessage::payloadText).containsExactlyInAnyOrderElementsOf(expected);
        Set<String> clients = new HashSet<>();
        sink.results().forEach(m -> clients.add(m.clientId()));
        assertThat(clients).containsExactlyInAnyOrder(p + "-0", p + "-1");
    }

    private JobHandle rescaleJob(int parallelism, CollectSink<MqttMessage> sink) {
        PipelineConfig config = new PipelineConfig().parallelism(parallelism);
        config.checkpoints().directory(dir.resolve("rescale-checkpoints")).periodic(false);
        Pipeline pipeline = Pipeline.create(config);
        MqttSource<MqttMessage> source = MqttSource.builder(MqttMessageDeserializer.messages())
                .server(broker.server()).topicFilters("rescale/a/#", "rescale/b/#").qos(1).clientIdPrefix("rescale").build();
        pipeline.fromSource(source, WatermarkStrategy.<MqttMessage>noWatermarks(), "mqtt").uid("mqtt").sinkTo(sink);
        return pipeline.executeAsync("rescale");
    }

    @Test
    void whenRestoredAtALowerParallelism_thenOneSubtaskReadsBothSessions_andNothingIsLeftInEither() throws Exception {
        TestClient.prepareSession(broker, "rescale-0", 1, "rescale/a/#");
        TestClient.prepareSession(broker, "rescale-1", 1, "rescale/b/#");
        CollectSink<MqttMessage> first = new CollectSink<>();
        JobHandle two = rescaleJob(2, first);
        try (TestClient publisher = TestClient.connect(broker, "rescale-publisher")) {
            publisher.publish("rescale/a/m1", "a0", 1);
            publisher.publish("rescale/b/m1", "b0", 1);
            Await.until("a message of each session", () -> first.size() >= 2);
            two.triggerCheckpoint().get(30, java.util.concurrent.TimeUnit.SECONDS);   // the two sessions are in it
        } finally {
            two.cancel();
            two.await();
        }
        CollectSink<MqttMessage> second = new CollectSink<>();
        JobHandle one = rescaleJob(1, second);   // restored from that checkpoint, with one subtask
        try (TestClient publisher = TestClient.connect(broker, "rescale-publisher")) {
            for (int i = 1; i <= 20; i++) {
                publisher.publish("rescale/a/m" + (i % 3), "a" + i, 1);
                publisher.publish("rescale/b/m" + (i % 3), "b" + i, 1);
            }
            Await.until("40 messages", () -> second.results().stream().filter(m -> !m.payloadText().matches("[ab]0")).count() >= 40);
        } finally {
            one.cancel();
            one.await();
        }
        List<MqttMessage> got = second.results().stream().filter(m -> !m.payloadText().matches("[ab]0")).toList();
        assertThat(got).extracting(MqttMessage::payloadText).hasSize(40).doesNotHaveDuplicates();
        assertThat(got).extracting(MqttMessage::clientId).containsOnly("rescale-0", "rescale-1").contains("rescale-0", "rescale-1");
    }

    @Test
    void whenTheBrokerIsDownAtTheStart_thenTheSourceKeepsTryingWithBackoff_andReadsOnceItIsUp() throws Exception {
        String p = "late";
        TestClient.prepareSession(broker, p + "-0", 1, p + "/#");
        Pipeline pipeline = pipeline(1);
        CollectSink<String> sink = new CollectSink<>();
        pipeline.fromSource(MqttSource.builder(MqttMessageDeserializer.values(BytesDecoder.utf8()))
                        .server(broker.server().withReconnectBackoff(Duration.ofMillis(20), Duration.ofMillis(200)))
                        .topicFilters(p + "/#").clientIdPrefix(p).build(),
                WatermarkStrategy.<String>noWatermarks(), "mqtt").sinkTo(sink);
        broker.stop();
        JobHandle job;
        try {
            job = pipeline.executeAsync("broker down at the start");
            assertThat(job.await(Duration.ofSeconds(1))).as("the job waits for the broker instead of failing").isNull();
        } finally {
            broker.start();
        }
        try (TestClient publisher = TestClient.connect(broker, p + "-publisher")) {
            for (int i = 0; i < 10; i++) {
                publisher.publish(p + "/m", "v" + i, 1);
            }
            Await.until("10 messages", () -> sink.size() >= 10);
        } finally {
            job.cancel();
            job.await();
        }
        assertThat(sink.results()).containsExactly("v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9");
    }

    static final RowType READING = RowType.builder()
            .field("machine", FieldType.STRING)
            .field("at", FieldType.TIMESTAMP)
            .field("celsius", FieldType.DOUBLE)
            .build();

    @Test
    void whenPayloadsDoNotDecode_thenTheyGoToTheDeadLettersWithRawBytesWhereAndWhy_andTheRestIsRead() throws Exception {
        String p = "bad";
        TestClient.prepareSession(broker, p + "-0", 1, p + "/+/reading");
        Pipeline pipeline = pipeline(1);
        CollectSink<Row> rows = new CollectSink<>();
        CollectSink<BadRecord> bad = new CollectSink<>();
        String server = "127.0.0.1";
        int port = broker.port();
        // tag::rows[]
        MqttSource<Row> readings = MqttSource.builder(MqttMessageDeserializer.rows(JsonRowFormat.of(READING)))
                .server(MqttServer.of(server, port))
                .topicFilters("bad/+/reading")
                .clientIdPrefix("bad")
                .build();
        var stream = pipeline.fromSource(readings,
                WatermarkStrategy.<Row>boundedOutOfOrderness(Duration.ofSeconds(5))
                        .withTimestampAssigner((row, arrival) -> row.getTimestamp("at")),   // event time from the payload
                BadRecordPolicy.DEAD_LETTER, "readings");
        stream.sinkTo(rows);
        stream.getSideOutput(BadRecord.DEAD_LETTERS).sinkTo(bad);   // raw payload, "topic ..., client ...", reason
        // end::rows[]
        JobHandle job = pipeline.executeAsync("bad payloads");
        byte[] notJson = {'{', 'x', (byte) 0xff};
        try (TestClient publisher = TestClient.connect(broker, p + "-publisher")) {
            publisher.publish(p + "/m1/reading", "{\"machine\":\"m1\",\"at\":1000,\"celsius\":70.5}", 1);
            publisher.publish(p + "/m2/reading", "{\"machine\":\"m2\",\"at\":1001,\"celsius\":\"hot\"}", 1);
            publisher.publish(p + "/m3/reading", notJson, 1, false);
            publisher.publish(p + "/m1/reading", "{\"machine\":\"m1\",\"at\":2000,\"celsius\":71.0}", 1);
            Await.until("two rows and two dead letters", () -> rows.size() >= 2 && bad.size() >= 2);
        } finally {
            job.cancel();
            job.await();
        }
        assertThat(rows.results()).extracting(r -> r.getDouble("celsius")).containsExactly(70.5, 71.0);
        assertThat(rows.timestamps()).containsExactly(1000L, 2000L);
        List<BadRecord> dead = bad.results();
        assertThat(dead).hasSize(2);
        assertThat(dead.get(0).rawText()).isEqualTo("{\"machine\":\"m2\",\"at\":1001,\"celsius\":\"hot\"}");
        assertThat(dead.get(0).location()).isEqualTo("topic bad/m2/reading, client bad-0");
        assertThat(dead.get(0).reason()).contains("celsius");
        assertThat(dead.get(1).raw()).isEqualTo(notJson);
        assertThat(dead.get(1).location()).isEqualTo("topic bad/m3/reading, client bad-0");
        assertThat(new String(dead.get(1).raw(), StandardCharsets.ISO_8859_1)).hasSize(3);
    }

    /** "machine@windowStart=count". */
    static final class CountPerWindow extends ProcessWindowFunction<Row, String, String, TimeWindow> {
        @Override
        public void process(String machine, Context<TimeWindow> ctx, Iterable<Row> rows, Collector<String> out) {
            int n = 0;
            for (Row ignored : rows) {
                n++;
            }
            out.collect(machine + "@" + ctx.window().start() + "=" + n);
        }
    }

    /**
     * Machine m2 uploads its readings of the first five seconds only after m1 has sent ten seconds' worth: with
     * watermarks per topic, m2's readings are not late (its own watermark is behind), and idleness lets the windows
     * fire once m2 falls silent; with one watermark per session its later readings would be late.
     */
    @Test
    void whenWatermarksArePerTopicWithIdleness_thenALaggingMachineIsNotLate_andASilentOneDoesNotHoldBackTheWindows() throws Exception {
        String p = "wm";
        TestClient.prepareSession(broker, p + "-0", 1, p + "/+/reading");
        Pipeline pipeline = pipeline(1);
        CollectSink<String> windows = new CollectSink<>();
        int port = broker.port();
        // tag::per-topic[]
        MqttSource<Row> readings = MqttSource.builder(MqttMessageDeserializer.rows(JsonRowFormat.of(READING)))
                .server(MqttServer.of("127.0.0.1", port))
                .topicFilters("wm/+/reading")
                .clientIdPrefix("wm")
                .watermarkPerTopic()                  // one watermark per machine's topic
                .build();
        pipeline.fromSource(readings, WatermarkStrategy.<Row>boundedOutOfOrderness(Duration.ZERO)
                        .withTimestampAssigner((row, arrival) -> row.getTimestamp("at"))
                        .withIdleness(Duration.ofMillis(500)), "readings")   // a silent topic stops holding back event time
                .keyBy(row -> row.getString("machine"))
                .window(Windows.tumbling(Duration.ofSeconds(5)))
                .process(new CountPerWindow())
                .sinkTo(windows);
        // end::per-topic[]
        JobHandle job = pipeline.executeAsync("per-topic watermarks");
        try (TestClient publisher = TestClient.connect(broker, p + "-publisher")) {
            publisher.publish(p + "/m2/reading", reading("m2", 500), 1);         // m2 is known, then falls behind
            for (int s = 0; s < 10; s++) {
                publisher.publish(p + "/m1/reading", reading("m1", s * 1000 + 500), 1);
            }
            for (int s = 1; s < 5; s++) {
                publisher.publish(p + "/m2/reading", reading("m2", s * 1000 + 500), 1);   // not late: m2's watermark is behind
            }
            // m1 goes on, m2 falls silent: once m2 is idle, the first windows close
            for (int s = 10; s < 1000 && windows.results().stream().noneMatch(w -> w.startsWith("m2@")); s++) {
                publisher.publish(p + "/m1/reading", reading("m1", s * 1000 + 500), 1);
                java.util.concurrent.locks.LockSupport.parkNanos(20_000_000); // pacing m1, not waiting for a condition
            }
        } finally {
            job.cancel();
            job.await();
        }
        assertThat(windows.results().stream().filter(w -> w.contains("@0=")).toList()).containsExactlyInAnyOrder("m1@0=5", "m2@0=5");
    }

    private static String reading(String machine, long at) {
        return "{\"machine\":\"" + machine + "\",\"at\":" + at + ",\"celsius\":70}";
    }
}
