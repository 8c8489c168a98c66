package io.millrace.connector.kafka;

import static io.millrace.connector.kafka.KafkaTestData.broker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CommittingSinkWriter;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.time.Clock;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.format.BytesDecoder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Kafka sinks against a real broker: what reaches the topic, and how prepared transactions survive a crash. */
class KafkaSinkIT {
    @TempDir
    Path dir;

    static SinkContext context(int subtask) {
        return new SinkContext() {
            @Override
            public int subtaskIndex() {
                return subtask;
            }

            @Override
            public int parallelism() {
                return 1;
            }

            @Override
            public Clock clock() {
                return Clock.system();
            }

            @Override
            public String sinkName() {
                return "test-sink";
            }
        };
    }

    private static List<String> values(String topic) {
        return KafkaTestData.readCommitted(topic).values().stream().flatMap(List::stream).map(r -> KafkaTestData.text(r.value())).toList();
    }

    private void copy(String from, String to, KafkaSink<String> sink, int parallelism) {
        PipelineConfig config = new PipelineConfig().parallelism(parallelism);
        config.checkpoints().directory(dir.resolve("checkpoints-" + to)).interval(Duration.ofMillis(100));
        Pipeline p = Pipeline.create(config);
        p.fromSource(KafkaSource.builder(KafkaRecordDeserializer.values(BytesDecoder.utf8())).bootstrapServers(broker().bootstrapServers())
                .topics(from).bounded().build(), WatermarkStrategy.<String>noWatermarks(), "in").uid("in")
                .sinkTo(sink).uid("out");
        assertThat(p.execute("copy").cancelled()).isFalse();
    }

    private static List<String> numbers(int n) {
        return IntStream.range(0, n).mapToObj(Integer::toString).toList();
    }

    @Test
    void atLeastOnceAndExactlyOnceSinks_copyATopic_recordForRecord() throws Exception {
        String in = KafkaTestData.topic("sink-in");
        broker().createTopic(in, 2);
        KafkaTestData.write(in, 0, numbers(3000), i -> 1000L + i);
        KafkaTestData.write(in, 1, numbers(2000), i -> 1000L + i);
        for (DeliveryGuarantee g : DeliveryGuarantee.values()) {
            String out = KafkaTestData.topic("sink-out-" + g.name().toLowerCase());
            broker().createTopic(out, 2);
            KafkaSink.Builder<String> b = KafkaSink.builder(KafkaRecordSerializer.<String>utf8(out, v -> v)).bootstrapServers(broker().bootstrapServers());
            if (g == DeliveryGuarantee.EXACTLY_ONCE) {
                b.exactlyOnce(out);
            }
            copy(in, out, b.build(), 2);
            List<String> expected = new java.util.ArrayList<>(numbers(3000));
            expected.addAll(numbers(2000));
            assertThat(values(out)).as(g.name()).containsExactlyInAnyOrderElementsOf(expected);
            if (g == DeliveryGuarantee.EXACTLY_ONCE) {
                assertThat(lingering(out, 0)).isEmpty();
                assertThat(lingering(out, 1)).isEmpty();
            }
        }
    }

    private static List<String> lingering(String prefix, int subtask) throws Exception {
        return new LingeringTransactions(Map.of("bootstrap.servers", broker().bootstrapServers()), new TransactionalIds(prefix), "test")
                .ongoing(subtask);
    }

    @Test
    void aTransactionPreparedByAProcessThatDied_isCommittedByANewCommitter_andCommittingItAgainSucceeds() throws Exception {
        String out = KafkaTestData.topic("resume");
        broker().createTopic(out, 1);
        KafkaSink<String> first = KafkaSink.builder(KafkaRecordSerializer.<String>utf8(out, null)).bootstrapServers(broker().bootstrapServers())
                .exactlyOnce(out).build();
        first.abortLingering(context(0), -1);
        CommittingSinkWriter<String, KafkaCommittable> writer = first.createWriter(context(0));
        for (String v : List.of("a", "b", "c")) {
            writer.write(v, Long.MIN_VALUE);
        }
        List<KafkaCommittable> prepared = writer.prepareCommit(1);
        assertThat(prepared).singleElement().satisfies(c -> assertThat(c.transactionalId()).isEqualTo(out + "-0-1"));
        assertThat(prepared.get(0).transactionV2()).as("written with transaction protocol 2, the 4.4 broker's default").isTrue();
        assertThat(lingering(out, 0)).containsExactly(out + "-0-1");
        first.createCommitter(context(0)).close(); // the process dies: its producers go away without ending the transaction
        writer.close();
        assertThat(values(out)).as("nothing visible before the commit").isEmpty();

        KafkaSink<String> restarted = KafkaSink.builder(KafkaRecordSerializer.<String>utf8(out, null)).bootstrapServers(broker().bootstrapServers())
                .exactlyOnce(out).build();
        restarted.abortLingering(context(0), 1);
        restarted.createCommitter(context(0)).commit(prepared);
        assertThat(values(out)).containsExactly("a", "b", "c");
        restarted.createCommitter(context(0)).commit(prepared);
        assertThat(values(out)).as("after a repeated commit").containsExactly("a", "b", "c");
        assertThat(lingering(out, 0)).isEmpty();
    }

    @Test
    void onRestore_transactionsAfterTheRestoredCheckpointAreAborted_andTheirProducersFenced() throws Exception {
        String out = KafkaTestData.topic("lingering");
        broker().createTopic(out, 1);
        KafkaSink<String> sink = KafkaSink.builder(KafkaRecordSerializer.<String>utf8(out, null)).bootstrapServers(broker().bootstrapServers())
                .exactlyOnce(out).build();
        TransactionalProducer zombie = TransactionalProducer.initialized(Map.of("bootstrap.servers", broker().bootstrapServers()), out + "-0-5");
        zombie.producer.beginTransaction();
        zombie.producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(out, KafkaTestData.bytes("zombie"))).get();
        TransactionalProducer kept = TransactionalProducer.initialized(Map.of("bootstrap.servers", broker().bootstrapServers()), out + "-0-4");
        kept.producer.beginTransaction();
        kept.producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(out, KafkaTestData.bytes("prepared at 4"))).get();
        KafkaCommittable four = kept.prepared();
        kept.closeNow();

        sink.abortLingering(context(0), 4);
        assertThat(lingering(out, 0)).as("only the transaction of checkpoint 4, which the restored checkpoint holds").containsExactly(out + "-0-4");
        assertThatThrownBy(zombie::commit).isInstanceOf(ProducerFencedException.class);
        zombie.closeNow();
        sink.createCommitter(context(0)).commit(List.of(four));
        assertThat(values(out)).containsExactly("prepared at 4");
    }

    @Test
    void aRecordTheBrokersRefuse_failsTheJobNamingTheTopicAndKafkasReason() throws Exception {
        String in = KafkaTestData.topic("large-in");
        String out = KafkaTestData.topic("large-out");
        broker().createTopic(in, 1);
        broker().createTopic(out, 1);
        KafkaTestData.write(in, 0, List.of("small", "x".repeat(5000)), i -> 1L);
        KafkaSink<String> sink = KafkaSink.builder(KafkaRecordSerializer.<String>utf8(out, null)).bootstrapServers(broker().bootstrapServers())
                .property("max.request.size", "2000").build();
        assertThatThrownBy(() -> copy(in, out, sink, 1))
                .hasStackTraceContaining("Kafka sink 'sink': a record could not be written to " + out)
                .hasStackTraceContaining("RecordTooLargeException");
    }

    @Test
    void aSavepointStoresPreparedTransactionsInTheCommittableCodec_andANewerVersionIsRefusedClearly() throws Exception {
        String in = KafkaTestData.topic("savepoint-in");
        String out = KafkaTestData.topic("savepoint-out");
        broker().createTopic(in, 1);
        broker().createTopic(out, 1);
        KafkaTestData.write(in, 0, numbers(500), i -> 1000L + i);
        KafkaSink<String> sink = KafkaSink.builder(KafkaRecordSerializer.<String>utf8(out, null)).bootstrapServers(broker().bootstrapServers())
                .exactlyOnce(out).build();
        PipelineConfig config = new PipelineConfig().parallelism(1);
        config.checkpoints().directory(dir.resolve("savepoint-job")).interval(Duration.ofHours(1)); // only the savepoint
        Pipeline p = Pipeline.create(config);
        p.fromSource(KafkaSource.builder(KafkaRecordDeserializer.values(BytesDecoder.utf8())).bootstrapServers(broker().bootstrapServers())
                .topics(in).build(), WatermarkStrategy.<String>noWatermarks(), "in").uid("in")
                .sinkTo(sink).uid("out");
        io.millrace.api.JobHandle job = p.executeAsync("savepoint");
        io.millrace.testing.Await.until("500 records written in the open transaction", Duration.ofSeconds(60), () -> uncommittedEnd(out) >= 500);
        Path savepoint = Path.of(job.stopWithSavepoint().get(30, java.util.concurrent.TimeUnit.SECONDS));
        job.await();

        List<io.millrace.runtime.checkpoint.VersionedBytes> committables = new java.util.ArrayList<>();
        try (var files = java.nio.file.Files.walk(savepoint)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".op")).toList()) {
                try (var stream = java.nio.file.Files.newInputStream(f)) {
                    for (java.io.Serializable item : io.millrace.runtime.checkpoint.OperatorStateFormat.read(stream, f.toString())) {
                        assertThat(item).as("no Java-serialized committable in " + f).isNotInstanceOf(KafkaCommittable.class);
                        if (item instanceof io.millrace.runtime.checkpoint.VersionedBytes v && v.kind() == io.millrace.runtime.checkpoint.VersionedBytes.COMMITTABLE) {
                            committables.add(v);
                        }
                    }
                }
            }
        }
        assertThat(committables).as("the transaction the savepoint prepared").hasSize(1);
        io.millrace.runtime.checkpoint.VersionedBytes stored = committables.get(0);
        assertThat(stored.version()).isEqualTo(1);
        KafkaCommittable c = sink.committableCodec().decode(stored.version(), stored.bytes());
        assertThat(c.transactionalId()).as("subtask 0, prepared by the savepoint, checkpoint 1").isEqualTo(out + "-0-1");
        assertThat(c.producerId()).isNotNegative();
        assertThat(c.transactionV2()).isTrue();
        assertThat(values(out)).as("committed when the savepoint completed").containsExactlyElementsOf(numbers(500));
        assertThatThrownBy(() -> sink.committableCodec().decode(2, stored.bytes())).isInstanceOf(java.io.IOException.class)
                .hasMessage("KafkaCommittable.Codec reads versions 1 to 1, not 2 (written by a newer release?)");
        assertThatThrownBy(() -> sink.committableCodec().decode(1, java.util.Arrays.copyOf(stored.bytes(), 5)))
                .hasMessageContaining("the bytes end early for version 1");
    }

    /** The end offset of partition 0 as a read_uncommitted consumer sees it: records of open transactions count. */
    private static long uncommittedEnd(String topic) {
        Map<String, Object> props = Map.of("bootstrap.servers", broker().bootstrapServers(), "isolation.level", "read_uncommitted");
        try (var c = new org.apache.kafka.clients.consumer.KafkaConsumer<>(props, new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            var tp = new org.apache.kafka.common.TopicPartition(topic, 0);
            return c.endOffsets(List.of(tp)).get(tp);
        }
    }

    @Test
    void builder_rejectsMissingOptionsAndPropertiesTheSinkOwns() {
        KafkaRecordSerializer<String> s = KafkaRecordSerializer.utf8("t", null);
        assertThatThrownBy(() -> KafkaSink.builder(s).build()).hasMessageContaining("'bootstrapServers' is required");
        assertThatThrownBy(() -> KafkaSink.builder(s).exactlyOnce(" ")).hasMessageContaining("'transactionalIdPrefix'");
        assertThatThrownBy(() -> KafkaSink.builder(s).property("transactional.id", "x")).hasMessageContaining("set by the sink");
        assertThatThrownBy(() -> KafkaSink.builder(s).property("lingr.ms", "1")).hasMessageContaining("'lingr.ms' is not a Kafka producer property");
        assertThatThrownBy(() -> KafkaRecordSerializer.utf8("", null)).hasMessageContaining("topic must not be empty");
    }
}
