package io.millrace.connector.kafka;

import static io.millrace.connector.kafka.KafkaTestData.broker;
import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.MapFunction;
import io.millrace.api.metrics.CheckpointMetrics;
import io.millrace.api.metrics.OperatorMetrics;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.runtime.checkpoint.ExactlyOnceRecoveryIT;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.testing.Await;
import io.millrace.format.BytesDecoder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Offsets in savepoints: an unbounded source of two partitions runs at parallelism 2 (a partition per subtask),
 * stops with a savepoint mid-stream, resumes at 1 (both partitions on one subtask), stops again, resumes at 3 (a
 * subtask with none) and is stopped once everything is read. The positions reached go to an exactly-once file sink;
 * over the three runs it has every offset of both partitions exactly once.
 */
class KafkaSourceRescaleIT {
    static final int PER_PARTITION = 10_000;

    @TempDir
    Path dir;

    /** Takes its time per record, so that a savepoint falls in the middle of the input. */
    static final class Slow implements MapFunction<KafkaRecord<String, String>, KafkaRecord<String, String>> {
        @Override
        public KafkaRecord<String, String> map(KafkaRecord<String, String> value) {
            LockSupport.parkNanos(100_000);
            return value;
        }
    }

    @Test
    void whenRescaledFrom2To1To3ThroughSavepoints_thenEveryRecordIsReadExactlyOnce() throws Exception {
        String topic = KafkaTestData.topic("rescale");
        broker().createTopic(topic, 2);
        for (int part = 0; part < 2; part++) {
            KafkaTestData.write(topic, part, IntStream.range(0, PER_PARTITION).mapToObj(i -> Integer.toString(i)).toList(), i -> i);
        }
        Path out = dir.resolve("out");
        JobHandle run1 = start(topic, 2, null, out);
        awaitProgress(run1, 3_000);
        String savepoint1 = run1.stopWithSavepoint().get(30, TimeUnit.SECONDS);
        run1.await();
        int afterFirst = ExactlyOnceRecoveryIT.readLines(out).size();
        assertThat(afterFirst).as("records committed by the first savepoint").isBetween(1, 2 * PER_PARTITION - 1);

        JobHandle run2 = start(topic, 1, Path.of(savepoint1), out);
        awaitProgress(run2, 3_000);
        String savepoint2 = run2.stopWithSavepoint().get(30, TimeUnit.SECONDS);
        run2.await();
        int afterSecond = ExactlyOnceRecoveryIT.readLines(out).size();
        assertThat(afterSecond).as("records committed by the second savepoint").isBetween(afterFirst + 1, 2 * PER_PARTITION - 1);

        JobHandle run3 = start(topic, 3, Path.of(savepoint2), out);
        Await.until("the rest read", Duration.ofSeconds(60),
                () -> run3.metrics().sum("kafka", OperatorMetrics::recordsOut) >= 2 * PER_PARTITION - afterSecond);
        run3.stopWithSavepoint().get(30, TimeUnit.SECONDS);
        run3.await();

        List<String> expected = new ArrayList<>();
        for (int part = 0; part < 2; part++) {
            for (int offset = 0; offset < PER_PARTITION; offset++) {
                expected.add(part + "," + offset);
            }
        }
        assertThat(ExactlyOnceRecoveryIT.readLines(out)).as("partition,offset of every record committed over the three runs")
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    private static void awaitProgress(JobHandle job, long records) {
        Await.until(records + " records read", Duration.ofSeconds(60), () -> job.metrics().sum("kafka", OperatorMetrics::recordsOut) >= records);
        Await.until("two checkpoints", Duration.ofSeconds(60),
                () -> job.metrics().checkpoints().stream().filter(CheckpointMetrics::completed).count() >= 2);
    }

    private JobHandle start(String topic, int parallelism, Path restoreFrom, Path out) {
        PipelineConfig config = new PipelineConfig().parallelism(parallelism);
        config.checkpoints().directory(dir.resolve("job")).interval(Duration.ofMillis(100));
        if (restoreFrom != null) {
            config.checkpoints().restoreFrom(restoreFrom);
        }
        Pipeline p = Pipeline.create(config);
        KafkaSource<KafkaRecord<String, String>> source = KafkaSource.builder(KafkaRecordDeserializer.records(BytesDecoder.utf8(), BytesDecoder.utf8()))
                .bootstrapServers(broker().bootstrapServers()).topics(topic).build();
        p.fromSource(source, WatermarkStrategy.<KafkaRecord<String, String>>monotonous(), "kafka").uid("kafka")
                .map(new Slow()).uid("slow")
                .map(r -> r.partition() + "," + r.offset()).uid("position")
                .sinkTo(TransactionalFileSink.of(out, ExactlyOnceRecoveryIT.LINES)).uid("positions");
        return p.executeAsync("kafka rescale");
    }
}
