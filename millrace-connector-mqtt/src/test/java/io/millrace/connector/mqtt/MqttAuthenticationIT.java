package io.millrace.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.Row;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.format.BytesDecoder;
import io.millrace.format.JsonRowFormat;
import io.millrace.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker that wants a user name and password (Mosquitto with {@code allow_anonymous false} and a password file made
 * by {@code mosquitto_passwd}): the right credentials read, wrong ones fail the job with the broker's reason, over
 * MQTT 5 and 3.1.1, and the sink speaks MQTT 3.1.1 too.
 */
class MqttAuthenticationIT {
    @TempDir
    static Path brokerDir;
    static Mosquitto broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() throws Exception {
        Path dir = brokerDir.resolve("broker");
        Files.createDirectories(dir);
        Path passwords = dir.resolve("passwords");
        Process p = new ProcessBuilder("mosquitto_passwd", "-c", "-b", passwords.toString(), "plant", "s3cret").redirectErrorStream(true).start();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("mosquitto_passwd: %s", new String(p.getInputStream().readAllBytes())).isZero();
        broker = Mosquitto.start(dir, "allow_anonymous false\npassword_file " + passwords + "\n");
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private Pipeline pipeline() {
        PipelineConfig config = new PipelineConfig().parallelism(1);
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(200));
        return Pipeline.create(config);
    }

    @Test
    void whenTheCredentialsAreWrong_thenTheJobFailsWithTheBrokersReason_overBothVersions() {
        for (MqttVersion version : MqttVersion.values()) {
            Pipeline pipeline = pipeline();
            MqttSource<String> source = MqttSource.builder(MqttMessageDeserializer.values(BytesDecoder.utf8()))
                    .server(broker.server().withVersion(version).withCredentials("plant", "wrong"))
                    .topicFilters("auth/#").clientIdPrefix("auth-" + version).build();
            pipeline.fromSource(source, WatermarkStrategy.<String>noWatermarks(), "mqtt").sinkTo(new CollectSink<>());
            assertThatThrownBy(() -> pipeline.execute("wrong password"))
                    .as("over %s", version)
                    .hasStackTraceContaining("refused client 'auth-" + version + "-0'")
                    .hasStackTraceContaining("check the server options: 'credentials'");
        }
    }

    @Test
    void whenTheCredentialsAreRight_thenAnMqtt311SinkAndSourceExchangeRows() throws Exception {
        MqttServer server = broker.server().withVersion(MqttVersion.MQTT_3_1_1).withCredentials("plant", "s3cret");
        TestClient.prepareSession311(broker, "auth-reader-0", "plant", "s3cret", 1, "auth/alarms/+");
        Pipeline reader = pipeline();
        CollectSink<Row> rows = new CollectSink<>();
        reader.fromSource(MqttSource.builder(MqttMessageDeserializer.rows(JsonRowFormat.of(MqttSinkIT.ALARM)))
                .server(server).topicFilters("auth/alarms/+").clientIdPrefix("auth-reader").build(),
                WatermarkStrategy.<Row>noWatermarks(), "mqtt").sinkTo(rows);
        JobHandle job = reader.executeAsync("reader");
        try {
            Pipeline writer = Pipeline.create(new PipelineConfig().parallelism(1));
            java.util.List<Row> input = new java.util.ArrayList<>();
            for (int i = 0; i < 50; i++) {
                input.add(Row.of(MqttSinkIT.ALARM, "m" + (i % 3), 1_000L + i, 90.0 + i));
            }
            writer.fromCollection(input).sinkTo(MqttSink.builder(JsonRowFormat.of(MqttSinkIT.ALARM))
                    .server(server).topic(r -> "auth/alarms/" + r.getString("machine")).qos(1).build());
            writer.execute("writer");
            Await.until("every row", () -> rows.size() >= 50);
        } finally {
            job.cancel();
            job.await();
        }
        assertThat(rows.results().stream().map(r -> r.getDouble("celsius")).sorted().toList()).containsExactlyElementsOf(input(50));
    }

    private static java.util.List<Double> input(int n) {
        java.util.List<Double> values = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            values.add(90.0 + i);
        }
        return values;
    }
}
