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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * What acknowledging after checkpoints costs: the broker sends a session at most the receive maximum of messages
 * that are not yet acknowledged, and the source acknowledges only when a checkpoint completes, so a session reads at
 * most about one receive maximum per checkpoint interval. Measured here with a small window (50) and a short interval
 * (250 ms) on 300 messages the broker had queued: at least five intervals, against a fraction of that when messages
 * are acknowledged on receipt. The rates are logged.
 */
class MqttAckCostIT {
    static final int MESSAGES = 300;
    static final int WINDOW = 50;
    static final Duration INTERVAL = Duration.ofMillis(250);

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
    void whenAcknowledgedAfterCheckpoints_thenASessionReadsAboutOneReceiveMaximumPerCheckpointInterval() throws Exception {
        long afterCheckpoint = readQueued("cost-ckpt", MqttSource.Acknowledgement.AFTER_CHECKPOINT);
        long onReceipt = readQueued("cost-receipt", MqttSource.Acknowledgement.ON_RECEIPT);
        LoggerFactory.getLogger(MqttAckCostIT.class).info("{} QoS 1 messages, receive maximum {}, checkpoints every {} ms:"
                + " acknowledged after checkpoints {} ms ({} messages/s), on receipt {} ms ({} messages/s)", MESSAGES, WINDOW,
                INTERVAL.toMillis(), afterCheckpoint, MESSAGES * 1000L / Math.max(1, afterCheckpoint), onReceipt,
                MESSAGES * 1000L / Math.max(1, onReceipt));
        // after the first window, each of the other five needs a checkpoint to complete first
        long windowsAfterTheFirst = MESSAGES / WINDOW - 1;
        assertThat(afterCheckpoint).as("ms to read %d messages %d at a time", MESSAGES, WINDOW)
                .isGreaterThanOrEqualTo(windowsAfterTheFirst * INTERVAL.toMillis() * 3 / 4);
    }

    /** Milliseconds from the first to the last of the queued messages. */
    private long readQueued(String prefix, MqttSource.Acknowledgement acknowledgement) throws Exception {
        TestClient.prepareSession(broker, prefix + "-0", 1, prefix + "/#");
        try (TestClient publisher = TestClient.connect(broker, prefix + "-publisher")) {
            for (int i = 0; i < MESSAGES; i++) {
                publisher.publish(prefix + "/m" + (i % 5), "v" + i, 1);
            }
        }
        PipelineConfig config = new PipelineConfig().parallelism(1);
        config.checkpoints().directory(dir.resolve(prefix)).interval(INTERVAL);
        Pipeline pipeline = Pipeline.create(config);
        MqttSource<String> source = MqttSource.builder(MqttMessageDeserializer.values(BytesDecoder.utf8()))
                .server(broker.server().withReceiveMaximum(WINDOW))
                .topicFilters(prefix + "/#").qos(1).clientIdPrefix(prefix).acknowledgement(acknowledgement).build();
        CollectSink<String> sink = new CollectSink<>();
        pipeline.fromSource(source, WatermarkStrategy.<String>noWatermarks(), "mqtt").sinkTo(sink);
        JobHandle job = pipeline.executeAsync(prefix);
        try {
            Await.until("the first message", Duration.ofSeconds(30), () -> sink.size() > 0);
            long start = System.nanoTime();
            Await.until(MESSAGES + " messages", Duration.ofSeconds(60), () -> sink.size() >= MESSAGES);
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(sink.results()).hasSize(MESSAGES);
            return millis;
        } finally {
            job.cancel();
            job.await();
        }
    }
}
