package io.millrace.bench.flink;

import io.millrace.bench.workload.kafka.KafkaJob;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The Kafka suite's job on Flink with its Kafka connector: the whole input topic from the earliest offset,
 * pass-through or a count per machine and 10 s window, to the output topic through {@code KafkaSink} with
 * {@code DeliveryGuarantee.EXACTLY_ONCE}, exactly-once checkpoints every second (hashmap state, filesystem
 * checkpoint storage, object reuse, watermarks every 10 ms, as the other Flink benchmarks). Runs until the suite
 * kills it. See {@link KafkaJob} for the arguments and the records.
 */
public final class FlinkKafkaJob {
    /** A record as read: key and value bytes; its Kafka timestamp travels as the element's timestamp. */
    public static final class Message {
        public byte[] key;
        public byte[] value;

        public Message() {}

        Message(byte[] key, byte[] value) {
            this.key = key;
            this.value = value;
        }
    }

    /** A window's count of one machine. */
    public static final class Count {
        public String machine;
        public long windowStart;
        public long count;

        public Count() {}

        Count(String machine, long windowStart, long count) {
            this.machine = machine;
            this.windowStart = windowStart;
            this.count = count;
        }
    }

    private FlinkKafkaJob() {}

    public static void main(String[] args) throws Exception {
        KafkaJob job = KafkaJob.parse(args);
        Configuration conf = new Configuration();
        conf.set(StateBackendOptions.STATE_BACKEND, "hashmap");
        conf.set(PipelineOptions.OBJECT_REUSE, true);
        conf.set(PipelineOptions.AUTO_WATERMARK_INTERVAL, Duration.ofMillis(10));
        conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, job.stateDir.resolve("checkpoints").toUri().toString());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(job.parallelism, conf);
        env.enableCheckpointing(1000, CheckpointingMode.EXACTLY_ONCE);

        KafkaSource<Message> source = KafkaSource.<Message>builder()
                .setBootstrapServers(job.bootstrap)
                .setTopics(job.input)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setProperty("isolation.level", "read_committed")
                .setGroupId(job.id)
                .setDeserializer(new Messages())
                .build();
        String out = job.output;
        if (job.part == KafkaJob.Part.PASSTHROUGH) {
            DataStream<Message> in = env.fromSource(source, WatermarkStrategy.noWatermarks(), "input").uid("input");
            in.sinkTo(sink(job, (KafkaRecordSerializationSchema<Message>) (m, ctx, ts) ->
                    new ProducerRecord<>(out, null, ts, m.key, m.value))).name("output");
        } else {
            DataStream<Message> in = env.fromSource(source, WatermarkStrategy.<Message>forMonotonousTimestamps(), "input").uid("input");
            in.keyBy(m -> new String(m.key, StandardCharsets.UTF_8))
                    .window(TumblingEventTimeWindows.of(Duration.ofMillis(KafkaJob.WINDOW_MS)))
                    .aggregate(new Counting(), new CountOf()).name("counts").uid("counts")
                    .sinkTo(sink(job, (KafkaRecordSerializationSchema<Count>) (c, ctx, ts) ->
                            new ProducerRecord<>(out, null, ts, c.machine.getBytes(StandardCharsets.UTF_8),
                                    KafkaJob.countValue(c.windowStart, c.count)))).name("output");
        }
        KafkaJob.started();
        env.execute("kafka-" + job.part.id());
    }

    private static <T> KafkaSink<T> sink(KafkaJob job, KafkaRecordSerializationSchema<T> serializer) {
        return KafkaSink.<T>builder()
                .setBootstrapServers(job.bootstrap)
                .setRecordSerializer(serializer)
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(job.id)
                // the broker's transaction.max.timeout.ms (15 min) is below the sink's default of one hour
                .setProperty("transaction.timeout.ms", "600000")
                .build();
    }

    static final class Messages implements KafkaRecordDeserializationSchema<Message> {
        private static final long serialVersionUID = 1L;

        @Override
        public void deserialize(ConsumerRecord<byte[], byte[]> r, Collector<Message> out) {
            out.collect(new Message(r.key(), r.value()));
        }

        @Override
        public TypeInformation<Message> getProducedType() {
            return TypeInformation.of(Message.class);
        }
    }

    static final class Counting implements AggregateFunction<Message, Long, Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public Long createAccumulator() {
            return 0L;
        }

        @Override
        public Long add(Message m, Long acc) {
            return acc + 1;
        }

        @Override
        public Long getResult(Long acc) {
            return acc;
        }

        @Override
        public Long merge(Long a, Long b) {
            return a + b;
        }
    }

    static final class CountOf extends ProcessWindowFunction<Long, Count, String, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(String machine, Context ctx, Iterable<Long> counts, Collector<Count> out) {
            out.collect(new Count(machine, ctx.window().getStart(), counts.iterator().next()));
        }
    }
}
