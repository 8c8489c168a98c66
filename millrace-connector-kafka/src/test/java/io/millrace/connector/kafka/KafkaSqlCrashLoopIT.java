package io.millrace.connector.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.runtime.checkpoint.CrashLoop;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SQL job from a {@code kafka} table into another with {@code 'sink.delivery-guarantee' = 'exactly-once'},
 * SIGKILLed five times at random moments and started again with nothing but its checkpoint directory, then run to the end: a
 * read_committed consumer sees every input line exactly once.
 */
class KafkaSqlCrashLoopIT {
    static final int PARTITIONS = 4;
    static final int RECORDS = 40_000;
    static final int KILLS = 5;

    @TempDir
    Path dir;

    @Test
    void whenTheSqlJobIsKilledFiveTimes_thenEveryLineIsCopiedExactlyOnce() throws Exception {
        String in = KafkaTestData.topic("sql-copy-in");
        String out = KafkaTestData.topic("sql-copy-out");
        KafkaTestData.broker().createTopic(in, PARTITIONS);
        KafkaTestData.broker().createTopic(out, PARTITIONS);
        // one record per batch, so that the job's one-byte fetches take one record per round trip
        try (KafkaProducer<byte[], byte[]> p = KafkaTestData.producer(Map.of(ProducerConfig.BATCH_SIZE_CONFIG, 0, ProducerConfig.LINGER_MS_CONFIG, 0))) {
            List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                sent.add(p.send(new ProducerRecord<>(in, i % PARTITIONS, null, KafkaTestData.bytes("line-" + i))));
            }
            for (var f : sent) {
                f.get();
            }
        }
        String brokers = KafkaTestData.broker().bootstrapServers();
        // a SQL job takes a second or two to plan and start: each run is killed only once it has completed a checkpoint
        // of its own, at a random moment up to 1.5 s later
        CrashLoop.killAfterEachCheckpoint(dir.resolve("checkpoints").resolve("checkpoints"), KILLS, 44, 1_500,
                () -> CrashLoop.start(dir, KafkaSqlCopyJob.class, List.of(), brokers, in, out));
        int beforeLast = KafkaTestData.readCommitted(out).values().stream().mapToInt(List::size).sum();
        assertThat(beforeLast).as("lines committed by the killed runs: they checkpointed, and the kills fell mid-stream").isBetween(1, RECORDS - 1);
        Process last = CrashLoop.start(dir, KafkaSqlCopyJob.class, List.of(), brokers, in, out);
        assertThat(last.waitFor(180, TimeUnit.SECONDS)).as("the last run finishes, see %s", dir.resolve("job.log")).isTrue();
        assertThat(last.exitValue()).as("exit code of the last run, see %s", dir.resolve("job.log")).isZero();
        assertThat(Files.readString(dir.resolve("job.log"))).contains("FINISHED");

        List<TopicPartition> tps = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            tps.add(new TopicPartition(out, p));
        }
        try (var committed = consumer(brokers, "read_committed"); var uncommitted = consumer(brokers, "read_uncommitted")) {
            io.millrace.testing.Await.until("no transaction left open on " + out, Duration.ofSeconds(60),
                    () -> committed.endOffsets(tps).equals(uncommitted.endOffsets(tps)));
        }
        Map<String, Integer> seen = new HashMap<>();
        for (List<ConsumerRecord<byte[], byte[]>> partition : KafkaTestData.readCommitted(out).values()) {
            for (ConsumerRecord<byte[], byte[]> r : partition) {
                seen.merge(KafkaTestData.text(r.value()), 1, Integer::sum);
            }
        }
        assertThat(seen).hasSize(RECORDS);
        assertThat(seen.values()).as("each line once").containsOnly(1);
        for (int i = 0; i < RECORDS; i += 997) {
            assertThat(seen).containsKey("line-" + i);
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String brokers, String isolation) {
        return new KafkaConsumer<>(Map.of("bootstrap.servers", brokers, "isolation.level", isolation), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }
}
