package io.millrace.connector.kafka;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.MapFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.format.BytesDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The job the Kafka crash loop kills again and again: copies a topic of numbered records ("<partition>:<sequence>",
 * sequence from 0 per partition) to another topic through keyed state, exactly once. Keyed by input partition (keys
 * "partition-N", which the four partitions spread evenly over the two subtasks), it counts the records of each
 * partition in a {@link ValueState} and writes "<sequence>:<count>" to the same partition of the output topic. Run as
 * {@code KafkaCopyJob <bootstrap> <in> <out> <dir> <microsPerRecord>}, where the source takes that long per record so
 * that a run lasts; it resumes from the checkpoints in {@code <dir>/checkpoints} by itself and prints FINISHED when the
 * input is copied.
 */
public final class KafkaCopyJob {
    private KafkaCopyJob() {}

    /** Takes its time per record, right after the source, so that checkpoint barriers do not queue behind a backlog. */
    static final class Throttle implements MapFunction<KafkaRecord<String, String>, KafkaRecord<String, String>> {
        private final long nanos;

        Throttle(long nanos) {
            this.nanos = nanos;
        }

        @Override
        public KafkaRecord<String, String> map(KafkaRecord<String, String> value) {
            if (nanos > 0) {
                LockSupport.parkNanos(nanos);
            }
            return value;
        }
    }

    /** Counts per key; emits "partition|sequence:count". */
    static final class CountPerPartition extends KeyedProcessFunction<String, KafkaRecord<String, String>, String> {
        private transient ValueState<Long> count;

        @Override
        public void open(RuntimeContext context) {
            count = context.state().getState(new ValueStateDescriptor<>("count"));
        }

        @Override
        public void processElement(KafkaRecord<String, String> r, Context<String> ctx, Collector<String> out) {
            Long c = count.value();
            long next = c == null ? 1 : c + 1;
            count.update(next);
            String sequence = r.value().substring(r.value().indexOf(':') + 1);
            out.collect(r.partition() + "|" + sequence + ":" + next);
        }
    }

    public static void main(String[] args) {
        String bootstrap = args[0];
        String in = args[1];
        String out = args[2];
        Path dir = Path.of(args[3]);
        long nanos = Long.parseLong(args[4]) * 1000;
        PipelineConfig config = new PipelineConfig().parallelism(2);
        config.checkpoints().directory(dir.resolve("checkpoints")).interval(Duration.ofMillis(200));
        Pipeline p = Pipeline.create(config);
        KafkaSource<KafkaRecord<String, String>> source = KafkaSource.builder(KafkaRecordDeserializer.records(BytesDecoder.utf8(), BytesDecoder.utf8()))
                .bootstrapServers(bootstrap).topics(in).bounded().property("max.poll.records", "100").build();
        KafkaSink<String> sink = KafkaSink.<String>builder((line, ts) -> {
            int bar = line.indexOf('|');
            return new ProducerRecord<>(out, Integer.parseInt(line.substring(0, bar)), null, null,
                    line.substring(bar + 1).getBytes(StandardCharsets.UTF_8));
        }).bootstrapServers(bootstrap).exactlyOnce(out).build();
        p.fromSource(source, WatermarkStrategy.<KafkaRecord<String, String>>noWatermarks(), "in").uid("in")
                .map(new Throttle(nanos)).uid("throttle")
                .keyBy(r -> "partition-" + r.partition())
                .process(new CountPerPartition()).uid("count")
                .sinkTo(sink).uid("out");
        p.execute("kafka copy");
        System.out.println("FINISHED");
    }
}
