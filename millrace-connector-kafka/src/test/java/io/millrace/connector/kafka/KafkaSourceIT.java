package io.millrace.connector.kafka;

import static io.millrace.connector.kafka.KafkaTestData.broker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.source.BadRecord;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.format.BytesDecoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The Kafka source against a real broker: what it reads, from where, and what it does with bad records. */
class KafkaSourceIT {
    private static List<String> numbers(int from, int to) {
        return IntStream.range(from, to).mapToObj(Integer::toString).toList();
    }

    private static <T> KafkaSource.Builder<T> source(KafkaRecordDeserializer<T> d, String topic) {
        return KafkaSource.builder(d).bootstrapServers(broker().bootstrapServers()).topics(topic).bounded();
    }

    private static <T> List<T> run(KafkaSource<T> source, int parallelism, BadRecordPolicy policy, CollectSink<BadRecord> deadLetters) {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(parallelism));
        CollectSink<T> sink = new CollectSink<>();
        var stream = p.fromSource(source, WatermarkStrategy.<T>monotonous(), policy, "kafka");
        stream.sinkTo(sink);
        if (deadLetters != null) {
            stream.getSideOutput(BadRecord.DEAD_LETTERS).sinkTo(deadLetters);
        }
        JobResult result = p.execute("kafka source test");
        assertThat(result.cancelled()).isFalse();
        return sink.results();
    }

    @Test
    void boundedSourceAtParallelismTwo_readsEveryRecordOfThreePartitions_withKeyHeadersPositionAndTimestamp_inOrderPerPartition() throws Exception {
        String topic = KafkaTestData.topic("records");
        broker().createTopic(topic, 3);
        for (int part = 0; part < 3; part++) {
            KafkaTestData.write(topic, part, numbers(part * 1000, part * 1000 + 700), i -> 1_000_000L + i);
        }
        try (KafkaProducer<byte[], byte[]> p = KafkaTestData.producer(Map.of())) {
            ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, 1, 5L, KafkaTestData.bytes("kh"), KafkaTestData.bytes("with-header"));
            r.headers().add("machine", KafkaTestData.bytes("press-7"));
            p.send(r).get();
        }
        List<KafkaRecord<String, String>> read = run(source(KafkaRecordDeserializer.records(BytesDecoder.utf8(), BytesDecoder.utf8()), topic).build(),
                2, BadRecordPolicy.FAIL, null);

        assertThat(read).hasSize(2101);
        for (int part = 0; part < 3; part++) {
            int fixed = part;
            List<KafkaRecord<String, String>> mine = read.stream().filter(r -> r.partition() == fixed && !r.value().equals("with-header")).toList();
            assertThat(mine).extracting(KafkaRecord::value).containsExactlyElementsOf(numbers(part * 1000, part * 1000 + 700));
            assertThat(mine).extracting(KafkaRecord::offset).containsExactlyElementsOf(IntStream.range(0, 700).mapToObj(i -> (long) i).toList());
            assertThat(mine).allSatisfy(r -> {
                assertThat(r.key()).isEqualTo("k" + r.value());
                assertThat(r.timestamp()).isEqualTo(1_000_000L + r.offset());
                assertThat(r.topic()).isEqualTo(topic);
            });
        }
        KafkaRecord<String, String> withHeader = read.stream().filter(r -> r.value().equals("with-header")).findFirst().orElseThrow();
        assertThat(withHeader.lastHeader("machine").text()).isEqualTo("press-7");
        assertThat(withHeader.offset()).isEqualTo(700);
        assertThat(withHeader.partition()).isEqualTo(1);
    }

    @Test
    void readCommittedByDefault_recordsOfAnAbortedTransactionAreNotRead_andReadUncommittedSeesThem() throws Exception {
        String topic = KafkaTestData.topic("aborted");
        broker().createTopic(topic, 1);
        try (KafkaProducer<byte[], byte[]> p = KafkaTestData.producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic))) {
            p.initTransactions();
            for (String v : List.of("a", "b", "c")) {
                p.beginTransaction();
                p.send(new ProducerRecord<>(topic, 0, null, KafkaTestData.bytes(v)));
                if (v.equals("b")) {
                    p.flush();
                    p.abortTransaction();
                } else {
                    p.commitTransaction();
                }
            }
        }
        KafkaRecordDeserializer<String> values = KafkaRecordDeserializer.values(BytesDecoder.utf8());
        assertThat(run(source(values, topic).build(), 1, BadRecordPolicy.FAIL, null)).containsExactly("a", "c");
        assertThat(run(source(values, topic).property(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted").build(), 1, BadRecordPolicy.FAIL, null))
                .containsExactly("a", "b", "c");
    }

    @Test
    void startingOffsets_givenCommittedAndLatest_startWhereTheySay() throws Exception {
        String topic = KafkaTestData.topic("starts");
        broker().createTopic(topic, 2);
        KafkaTestData.write(topic, 0, numbers(0, 100), i -> i);
        KafkaTestData.write(topic, 1, numbers(100, 200), i -> i);
        KafkaRecordDeserializer<String> values = KafkaRecordDeserializer.values(BytesDecoder.utf8());

        List<String> given = run(source(values, topic).startingOffsets(StartingOffsets.given(
                Map.of(new TopicPartition(topic, 0), 90L), StartingOffsets.latest())).build(), 1, BadRecordPolicy.FAIL, null);
        assertThat(given).containsExactlyElementsOf(numbers(90, 100));

        String group = topic + "-group";
        try (var admin = broker().admin()) {
            admin.alterConsumerGroupOffsets(group, Map.of(new TopicPartition(topic, 1), new OffsetAndMetadata(95))).all().get();
            assertThat(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get()).containsKey(new TopicPartition(topic, 1));
        }
        List<String> committed = run(source(values, topic).groupId(group).startingOffsets(StartingOffsets.committed()).build(), 1, BadRecordPolicy.FAIL, null);
        assertThat(committed).as("partition 0 has no committed offset: from the earliest; partition 1 from offset 95")
                .containsExactlyInAnyOrderElementsOf(concat(numbers(0, 100), numbers(195, 200)));

        assertThat(run(source(values, topic).startingOffsets(StartingOffsets.latest()).build(), 2, BadRecordPolicy.FAIL, null)).isEmpty();
    }

    @Test
    void badRecords_failNamingTopicPartitionAndOffset_skipAndCount_orGoToDeadLettersWithTheirRawBytes() throws Exception {
        String topic = KafkaTestData.topic("bad");
        broker().createTopic(topic, 1);
        try (KafkaProducer<byte[], byte[]> p = KafkaTestData.producer(Map.of())) {
            p.send(new ProducerRecord<>(topic, 0, null, KafkaTestData.bytes("1")));
            p.send(new ProducerRecord<>(topic, 0, null, KafkaTestData.bytes("two")));
            p.send(new ProducerRecord<>(topic, 0, null, new byte[] {(byte) 0xff, 0x00}));
            p.send(new ProducerRecord<>(topic, 0, null, KafkaTestData.bytes("4"))).get();
        }
        KafkaSource<Long> longs = source(KafkaRecordDeserializer.values(BytesDecoder.decimalLongs()), topic).build();

        assertThatThrownBy(() -> run(longs, 1, BadRecordPolicy.FAIL, null))
                .hasStackTraceContaining("topic " + topic + ", partition 0, offset 1")
                .hasStackTraceContaining("not a decimal number: 'two'");
        assertThat(run(longs, 1, BadRecordPolicy.SKIP, null)).containsExactly(1L, 4L);

        CollectSink<BadRecord> dead = new CollectSink<>();
        assertThat(run(longs, 1, BadRecordPolicy.DEAD_LETTER, dead)).containsExactly(1L, 4L);
        assertThat(dead.results()).extracting(BadRecord::location)
                .containsExactly("topic " + topic + ", partition 0, offset 1", "topic " + topic + ", partition 0, offset 2");
        assertThat(dead.results().get(0).raw()).isEqualTo("two".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(dead.results().get(1).raw()).isEqualTo(new byte[] {(byte) 0xFF, 0});
        assertThat(dead.results().get(1).reason()).contains("not valid UTF-8");
    }

    @Test
    void missingTopic_failsTheJobNamingTheTopic() {
        KafkaSource<String> source = source(KafkaRecordDeserializer.values(BytesDecoder.utf8()), "no-such-topic").build();
        assertThatThrownBy(() -> run(source, 1, BadRecordPolicy.FAIL, null)).hasStackTraceContaining("topic 'no-such-topic' does not exist");
    }

    @Test
    void unreachableBrokers_failTheJobNamingBootstrapServers() {
        KafkaSource<String> source = KafkaSource.builder(KafkaRecordDeserializer.values(BytesDecoder.utf8()))
                .bootstrapServers("127.0.0.1:1").topics("t").property("request.timeout.ms", "1000").property("default.api.timeout.ms", "2000").build();
        assertThatThrownBy(() -> run(source, 1, BadRecordPolicy.FAIL, null)).hasStackTraceContaining("bootstrap.servers=127.0.0.1:1");
    }

    @Test
    void builder_rejectsMissingOptionsAndPropertiesTheSourceOwns() {
        KafkaRecordDeserializer<String> values = KafkaRecordDeserializer.values(BytesDecoder.utf8());
        assertThatThrownBy(() -> KafkaSource.builder(values).topics("t").build()).hasMessageContaining("'bootstrapServers' is required");
        assertThatThrownBy(() -> KafkaSource.builder(values).bootstrapServers("x:1").build()).hasMessageContaining("'topics' is required");
        assertThatThrownBy(() -> KafkaSource.builder(values).bootstrapServers("x:1").topics("t").startingOffsets(StartingOffsets.committed()).build())
                .hasMessageContaining("needs option 'groupId'");
        assertThatThrownBy(() -> KafkaSource.builder(values).property("enable.auto.commit", "true")).hasMessageContaining("set by the source");
        assertThatThrownBy(() -> KafkaSource.builder(values).property("fetch.max.bites", "1")).hasMessageContaining("'fetch.max.bites' is not a Kafka consumer property");
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
