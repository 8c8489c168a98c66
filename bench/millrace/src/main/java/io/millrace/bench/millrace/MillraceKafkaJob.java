package io.millrace.bench.millrace;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.AggregateFunction;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.PackedAccumulator;
import io.millrace.api.functions.ProcessWindowFunction;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.TimeWindow;
import io.millrace.api.window.Windows;
import io.millrace.bench.workload.kafka.KafkaJob;
import io.millrace.connector.kafka.KafkaRecordSerializer;
import io.millrace.connector.kafka.KafkaSink;
import io.millrace.connector.kafka.KafkaSource;
import io.millrace.connector.kafka.StartingOffsets;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The Kafka suite's job on Millrace: the whole input topic from the earliest offset, pass-through or a count per
 * machine and 10 s window, to the output topic through the exactly-once sink, checkpoints every second. Runs until
 * the suite kills it. See {@link KafkaJob} for the arguments and the records.
 */
public final class MillraceKafkaJob {
    /** A record as read: key and value bytes; its Kafka timestamp travels as the element's event time. */
    record Message(byte[] key, byte[] value) {}

    /** A window's count of one machine. */
    record Count(String machine, long windowStart, long count) {}

    private MillraceKafkaJob() {}

    public static void main(String[] args) {
        KafkaJob job = KafkaJob.parse(args);
        PipelineConfig config = new PipelineConfig().parallelism(job.parallelism);
        config.checkpoints().directory(job.stateDir.resolve("checkpoints")).interval(Duration.ofSeconds(1));
        Pipeline pipeline = Pipeline.create(config);
        KafkaSource<Message> source = KafkaSource.builder(r -> new Message(r.key(), r.value()))
                .bootstrapServers(job.bootstrap)
                .topics(job.input)
                .startingOffsets(StartingOffsets.earliest())
                .build();
        String out = job.output;
        if (job.part == KafkaJob.Part.PASSTHROUGH) {
            DataStream<Message> in = pipeline.fromSource(source, WatermarkStrategy.<Message>noWatermarks(), "input").uid("input");
            in.sinkTo(KafkaSink.builder((KafkaRecordSerializer<Message>) (m, ts) ->
                            new ProducerRecord<>(out, null, ts == Long.MIN_VALUE ? null : ts, m.key(), m.value()))
                    .bootstrapServers(job.bootstrap).exactlyOnce(job.id).build()).name("output");
        } else {
            DataStream<Message> in = pipeline.fromSource(source, WatermarkStrategy.<Message>monotonous(), "input").uid("input");
            in.keyBy(m -> new String(m.key(), StandardCharsets.UTF_8))
                    .window(Windows.tumbling(Duration.ofMillis(KafkaJob.WINDOW_MS)))
                    .aggregate(new Counting(), new CountOf()).name("counts").uid("counts")
                    .sinkTo(KafkaSink.builder(KafkaRecordSerializer.<Count>to(out, c -> c.machine().getBytes(StandardCharsets.UTF_8),
                                    c -> KafkaJob.countValue(c.windowStart(), c.count())))
                            .bootstrapServers(job.bootstrap).exactlyOnce(job.id).build()).name("output");
        }
        KafkaJob.started();
        pipeline.execute("kafka-" + job.part.id());
    }

    /** A count, packed into one long so the window keeps it as a number. */
    static final class Tally implements PackedAccumulator, java.io.Serializable {
        private static final long serialVersionUID = 1L;
        long n;

        @Override
        public int packedLongs() {
            return 1;
        }

        @Override
        public void packInto(long[] slots, int offset) {
            slots[offset] = n;
        }

        @Override
        public void unpackFrom(long[] slots, int offset) {
            n = slots[offset];
        }
    }

    static final class Counting implements AggregateFunction<Message, Tally, Tally> {
        private static final long serialVersionUID = 1L;

        @Override
        public Tally createAccumulator() {
            return new Tally();
        }

        @Override
        public Tally add(Message m, Tally acc) {
            acc.n++;
            return acc;
        }

        @Override
        public Tally getResult(Tally acc) {
            return acc;
        }

        @Override
        public Tally merge(Tally a, Tally b) {
            a.n += b.n;
            return a;
        }
    }

    static final class CountOf extends ProcessWindowFunction<Tally, Count, String, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(String machine, Context<TimeWindow> ctx, Iterable<Tally> tallies, Collector<Count> out) {
            out.collect(new Count(machine, ctx.window().start(), tallies.iterator().next().n));
        }
    }
}
