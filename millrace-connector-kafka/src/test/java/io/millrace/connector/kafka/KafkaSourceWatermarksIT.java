package io.millrace.connector.kafka;

import static io.millrace.connector.kafka.KafkaTestData.broker;
import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessFunction;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.testing.Await;
import io.millrace.format.BytesDecoder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Event time per partition: each partition is a split with its own watermark generator and idleness. */
class KafkaSourceWatermarksIT {
    /** Emits "timestamp,watermark-before-the-record" for every record. */
    static final class TimestampAndWatermark extends ProcessFunction<String, long[]> {
        @Override
        public void processElement(String value, Context ctx, Collector<long[]> out) {
            out.collect(new long[] {ctx.timestamp(), ctx.currentWatermark()});
        }
    }

    private static KafkaSource.Builder<String> source(String topic) {
        return KafkaSource.builder(KafkaRecordDeserializer.values(BytesDecoder.utf8())).bootstrapServers(broker().bootstrapServers()).topics(topic);
    }

    @Test
    void partitionsFarApartInEventTime_withMonotonousWatermarksPerPartition_noRecordIsBehindTheWatermark() throws Exception {
        String topic = KafkaTestData.topic("disorder");
        broker().createTopic(topic, 2);
        List<String> values = IntStream.range(0, 2000).mapToObj(Integer::toString).toList();
        KafkaTestData.write(topic, 0, values, i -> 1_000_000L + i * 10L);
        KafkaTestData.write(topic, 1, values, i -> i * 10L);
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
        CollectSink<long[]> out = new CollectSink<>();
        p.fromSource(source(topic).bounded().build(), WatermarkStrategy.<String>monotonous(), "kafka")
                .process(new TimestampAndWatermark()).sinkTo(out);
        p.execute("per-partition watermarks");
        assertThat(out.results()).hasSize(4000)
                .allSatisfy(r -> assertThat(r[0]).as("record timestamp above the watermark it met").isGreaterThan(r[1]));
    }

    @Test
    void anIdlePartition_doesNotHoldBackTheWatermark_ofTheActiveOne() throws Exception {
        String topic = KafkaTestData.topic("idle");
        broker().createTopic(topic, 2);
        KafkaTestData.write(topic, 1, List.of("early"), i -> 0L);
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
        CollectSink<long[]> out = new CollectSink<>();
        p.fromSource(source(topic).build(), WatermarkStrategy.<String>monotonous().withIdleness(Duration.ofMillis(200)), "kafka")
                .process(new TimestampAndWatermark()).sinkTo(out);
        JobHandle job = p.executeAsync("idle partition");
        try {
            Await.until("the early record read", Duration.ofSeconds(30), () -> job.metrics().sum("kafka", io.millrace.api.metrics.OperatorMetrics::recordsOut) >= 1);
            // partition 1 now falls silent while partition 0 keeps receiving records with rising timestamps
            try (KafkaProducer<byte[], byte[]> producer = KafkaTestData.producer(Map.of())) {
                long[] next = {1_000_000};
                Await.until("the source watermark passes 1,000,000 with partition 1 idle", Duration.ofSeconds(30), () -> {
                    producer.send(new ProducerRecord<>(topic, 0, next[0], null, KafkaTestData.bytes(Long.toString(next[0]))));
                    producer.flush();
                    next[0] += 100;
                    return job.metrics().watermark("kafka") >= 1_000_000;
                });
            }
            assertThat(out.results()).extracting(r -> r[0]).contains(0L);
        } finally {
            job.cancel();
            job.await();
        }
    }
}
