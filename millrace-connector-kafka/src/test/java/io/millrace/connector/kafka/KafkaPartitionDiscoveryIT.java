package io.millrace.connector.kafka;

import static io.millrace.connector.kafka.KafkaTestData.broker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka source's enumerator against a real broker: partitions and topics that appear while the job runs are read,
 * starting points, offsets committed to the group when checkpoints complete, and restores that stay exact.
 */
class KafkaPartitionDiscoveryIT {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private static List<String> numbers(int from, int to) {
        return IntStream.range(from, to).mapToObj(Integer::toString).toList();
    }

    private static KafkaSource.Builder<String> source() {
        return KafkaSource.builder(KafkaRecordDeserializer.values(BytesDecoder.utf8())).bootstrapServers(broker().bootstrapServers())
                .partitionDiscoveryInterval(Duration.ofMillis(200));
    }

    private JobHandle run(KafkaSource<String> source, CollectSink<String> sink, Path restoreFrom) {
        PipelineConfig config = new PipelineConfig().parallelism(2);
        config.checkpoints().directory(dir.resolve("cp")).interval(Duration.ofMillis(200));
        if (restoreFrom != null) {
            config.checkpoints().restoreFrom(restoreFrom);
        }
        Pipeline p = Pipeline.create(config);
        p.fromSource(source, WatermarkStrategy.noWatermarks(), "kafka").uid("kafka").sinkTo(sink);
        return p.executeAsync("discovery");
    }

    /** Waits until {@code sink} holds {@code size} records; a job that ended before (failed) is reported with its cause. */
    private static void await(String what, JobHandle job, CollectSink<String> sink, int size) throws InterruptedException {
        until(what, () -> sink.size() >= size || job.isDone());
        if (sink.size() < size) {
            job.await(); // throws the job's failure
            throw new AssertionError(what + ": the job ended with " + sink.size() + " of " + size + " records");
        }
        assertThat(sink.size()).as(what + ": no more than expected").isEqualTo(size);
    }

    @Test
    void partitionsAddedWhileRunning_areReadFromTheirStart_offsetsAreCommittedToTheGroup_andARestoreIsExact() throws Exception {
        String topic = KafkaTestData.topic("grows");
        String group = topic + "-group";
        broker().createTopic(topic, 1);
        KafkaTestData.write(topic, 0, numbers(0, 50), i -> i);
        CollectSink<String> first = new CollectSink<>();
        JobHandle job = run(source().topics(topic).groupId(group).build(), first, null);
        await("partition 0 read", job, first, 50);

        try (Admin admin = broker().admin()) {
            admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(3))).all().get(30, TimeUnit.SECONDS);
        }
        KafkaTestData.write(topic, 1, numbers(100, 130), i -> i);
        KafkaTestData.write(topic, 2, numbers(200, 240), i -> i);
        await("the added partitions read", job, first, 120);
        assertThat(first.results()).containsExactlyInAnyOrderElementsOf(concat(numbers(0, 50), numbers(100, 130), numbers(200, 240)));

        try (Admin admin = broker().admin()) {
            Map<TopicPartition, OffsetAndMetadata> expected = Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(50),
                    new TopicPartition(topic, 1), new OffsetAndMetadata(30), new TopicPartition(topic, 2), new OffsetAndMetadata(40));
            until("offsets of a completed checkpoint committed to " + group, () -> {
                try {
                    return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().entrySet().containsAll(expected.entrySet());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        String savepoint = job.stopWithSavepoint().get(60, TimeUnit.SECONDS);
        job.await();

        KafkaTestData.write(topic, 0, numbers(50, 60), i -> i);
        KafkaTestData.write(topic, 2, numbers(240, 250), i -> i);
        try (Admin admin = broker().admin()) {
            admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(4))).all().get(30, TimeUnit.SECONDS);
        }
        KafkaTestData.write(topic, 3, numbers(300, 305), i -> i);
        CollectSink<String> second = new CollectSink<>();
        JobHandle restored = run(source().topics(topic).groupId(group).build(), second, Path.of(savepoint));
        await("the records written after the savepoint, also those of a partition added meanwhile", restored, second, 25);
        restored.stopWithSavepoint().get(60, TimeUnit.SECONDS);
        restored.await();
        assertThat(second.results()).containsExactlyInAnyOrderElementsOf(concat(numbers(50, 60), numbers(240, 250), numbers(300, 305)));
    }

    @Test
    void topicPattern_picksUpATopicCreatedWhileTheJobRuns() throws Exception {
        String prefix = KafkaTestData.topic("pattern");
        broker().createTopic(prefix + ".a", 2);
        KafkaTestData.write(prefix + ".a", 0, numbers(0, 20), i -> i);
        KafkaTestData.write(prefix + ".a", 1, numbers(20, 30), i -> i);
        broker().createTopic(prefix + "-not-matching", 1);
        KafkaTestData.write(prefix + "-not-matching", 0, numbers(900, 910), i -> i);
        CollectSink<String> sink = new CollectSink<>();
        String brokers = broker().bootstrapServers();
        // tag::pattern[]
        KafkaSource<String> lines = KafkaSource.builder(KafkaRecordDeserializer.values(BytesDecoder.utf8()))
                .bootstrapServers(brokers)
                .topicPattern(Pattern.quote(prefix) + "\\.[a-z]")    // "<prefix>.a", "<prefix>.b"..., also topics created later
                .partitionDiscoveryInterval(Duration.ofMillis(200))  // look for new topics and partitions this often
                .groupId(prefix + "-monitoring")                     // offsets of completed checkpoints are committed here
                .build();
        // end::pattern[]
        JobHandle job = run(lines, sink, null);
        await("the first topic read", job, sink, 30);

        broker().createTopic(prefix + ".b", 1);
        KafkaTestData.write(prefix + ".b", 0, numbers(40, 55), i -> i);
        await("the topic created later read", job, sink, 45);
        job.cancel();
        job.await();
        assertThat(sink.results()).containsExactlyInAnyOrderElementsOf(concat(numbers(0, 30), numbers(40, 55)));
    }

    @Test
    void startingFromATimestamp_readsEachPartitionFromItsFirstRecordAtOrAfterIt() throws Exception {
        String topic = KafkaTestData.topic("from-time");
        broker().createTopic(topic, 2);
        KafkaTestData.write(topic, 0, numbers(0, 100), i -> 1_000L + 10L * i);
        KafkaTestData.write(topic, 1, numbers(100, 110), i -> 1_000L + i);
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<String> sink = new CollectSink<>();
        p.fromSource(source().topics(topic).startingOffsets(StartingOffsets.timestamp(1_500L)).bounded().build(),
                WatermarkStrategy.noWatermarks(), "kafka").sinkTo(sink);
        p.execute("from timestamp");
        assertThat(sink.results()).as("partition 0 from timestamp 1500 (value 50); partition 1 has nothing that late")
                .containsExactlyInAnyOrderElementsOf(numbers(50, 100));
    }

    @Test
    void startingFromCommittedOffsets_withTheLatestAsReset_skipsWhatAPartitionWithoutOneHolds() throws Exception {
        String topic = KafkaTestData.topic("reset");
        String group = topic + "-group";
        broker().createTopic(topic, 2);
        KafkaTestData.write(topic, 0, numbers(0, 10), i -> i);
        KafkaTestData.write(topic, 1, numbers(10, 20), i -> i);
        try (Admin admin = broker().admin()) {
            admin.alterConsumerGroupOffsets(group, Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(7))).all().get();
        }
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
        CollectSink<String> sink = new CollectSink<>();
        p.fromSource(source().topics(topic).groupId(group).startingOffsets(StartingOffsets.committed(StartingOffsets.latest())).bounded().build(),
                WatermarkStrategy.noWatermarks(), "kafka").sinkTo(sink);
        p.execute("committed with reset");
        assertThat(sink.results()).containsExactly("7", "8", "9");
    }

    @Test
    void badOptions_nameTheOption() {
        assertThatThrownBy(() -> source().topicPattern("(")).hasMessageContaining("'topicPattern'");
        assertThatThrownBy(() -> source().topics("a").topicPattern("b").build()).hasMessageContaining("either option 'topics' or 'topicPattern'");
        assertThatThrownBy(() -> source().partitionDiscoveryInterval(Duration.ofSeconds(-1))).hasMessageContaining("'partitionDiscoveryInterval'");
        assertThatThrownBy(() -> StartingOffsets.committed(StartingOffsets.timestamp(5))).hasMessageContaining("earliest() or latest()");
        assertThatThrownBy(() -> StartingOffsets.timestamp(-1)).hasMessageContaining("timestamp must not be negative");
    }

    /** Polls {@code condition} every 20 ms until it holds; fails naming {@code what} after a minute. */
    private static void until(String what, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + WAIT + ": " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L);
        }
    }

    @SafeVarargs
    private static List<String> concat(List<String>... lists) {
        List<String> all = new ArrayList<>();
        for (List<String> l : lists) {
            all.addAll(l);
        }
        return all;
    }
}
