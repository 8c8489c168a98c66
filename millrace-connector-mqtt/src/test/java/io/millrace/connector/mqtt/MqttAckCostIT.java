package io.millrace.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.format.BytesDecoder;
import io.millrace.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * What acknowledging after checkpoints costs. The broker sends a session at most a window of messages that are not
 * yet acknowledged (Mosquitto's {@code max_inflight_messages}, here 50), and the source acknowledges only when a
 * checkpoint completes: without a completed checkpoint the session receives the first window and nothing more. The
 * second test measures reading 2,000 queued messages with checkpoints every 250 ms against acknowledging on receipt,
 * and logs the rates.
 */
class MqttAckCostIT {
    static final int WINDOW = 50;

    @TempDir
    static Path brokerDir;
    static Mosquitto broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = Mosquitto.start(brokerDir.resolve("broker"), "max_inflight_messages " + WINDOW + "\n");   // the window
    }

    @AfterAll
    static void stopBroker() throws Exception {
        broker.close();
    }

    @Test
    void whenNoCheckpointHasCompleted_thenTheSessionGetsOneInflightWindowOnly_andACompletedCheckpointReleasesTheRest() throws Exception {
        String prefix = "window";
        queue(prefix, 300);
        PipelineConfig config = new PipelineConfig().parallelism(1);
        config.checkpoints().directory(dir.resolve(prefix)).periodic(false);   // checkpoints only when the test asks
        Pipeline pipeline = Pipeline.create(config);
        CollectSink<String> sink = new CollectSink<>();
        pipeline.fromSource(source(prefix, MqttSource.Acknowledgement.AFTER_CHECKPOINT), WatermarkStrategy.<String>noWatermarks(), "mqtt")
                .sinkTo(sink);
        JobHandle job = pipeline.executeAsync(prefix);
        try {
            Await.until("the first window", Duration.ofSeconds(30), () -> sink.size() >= WINDOW);
            assertThat(job.await(Duration.ofMillis(500))).as("the job still runs").isNull();
            assertThat(sink.size()).as("messages received before any checkpoint completed").isEqualTo(WINDOW);
            job.triggerCheckpoint().get(30, TimeUnit.SECONDS);
            Await.until("the rest, once the first window is acknowledged", Duration.ofSeconds(30), () -> sink.size() >= 300);
        } finally {
            job.cancel();
            job.await();
        }
        assertThat(sink.results()).hasSize(300).doesNotHaveDuplicates();
    }

    @Test
    void whenAcknowledgedAfterCheckpoints_thenQueuedMessagesAreReadAtARateTheLogShows() throws Exception {
        int messages = 2000;
        long afterCheckpoint = readQueued("cost-ckpt", messages, MqttSource.Acknowledgement.AFTER_CHECKPOINT);
        long onReceipt = readQueued("cost-receipt", messages, MqttSource.Acknowledgement.ON_RECEIPT);
        LoggerFactory.getLogger(MqttAckCostIT.class).info("{} queued QoS 1 messages, max_inflight_messages {}, checkpoints every 250 ms:"
                + " acknowledged after checkpoints {} ms ({} messages/s), on receipt {} ms ({} messages/s)", messages, WINDOW,
                afterCheckpoint, messages * 1000L / Math.max(1, afterCheckpoint), onReceipt, messages * 1000L / Math.max(1, onReceipt));
    }

    private static void queue(String prefix, int messages) {
        TestClient.prepareSession(broker, prefix + "-0", 1, prefix + "/#");
        try (TestClient publisher = TestClient.connect(broker, prefix + "-publisher")) {
            for (int i = 0; i < messages; i++) {
                publisher.publish(prefix + "/m" + (i % 5), "v" + i, 1);
            }
        }
    }

    private static MqttSource<String> source(String prefix, MqttSource.Acknowledgement acknowledgement) {
        return MqttSource.builder(MqttMessageDeserializer.values(BytesDecoder.utf8()))
                .server(broker.server())
                .topicFilters(prefix + "/#").qos(1).clientIdPrefix(prefix).acknowledgement(acknowledgement).build();
    }

    /** Milliseconds from the first to the last of the queued messages. */
    private long readQueued(String prefix, int messages, MqttSource.Acknowledgement acknowledgement) throws Exception {
        queue(prefix, messages);
        PipelineConfig config = new PipelineConfig().parallelism(1);
        config.checkpoints().directory(dir.resolve(prefix)).interval(Duration.ofMillis(250));
        Pipeline pipeline = Pipeline.create(config);
        CollectSink<String> sink = new CollectSink<>();
        pipeline.fromSource(source(prefix, acknowledgement), WatermarkStrategy.<String>noWatermarks(), "mqtt").sinkTo(sink);
        JobHandle job = pipeline.executeAsync(prefix);
        try {
            Await.until("the first message", Duration.ofSeconds(30), () -> sink.size() > 0);
            long start = System.nanoTime();
            Await.until(messages + " messages", Duration.ofSeconds(60), () -> sink.size() >= messages);
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(sink.results()).hasSize(messages).doesNotHaveDuplicates();
            return millis;
        } finally {
            job.cancel();
            job.await();
        }
    }
}
