package io.millrace.runtime.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.ProcessFunction;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.source.Boundedness;
import io.millrace.api.source.CollectionSource;
import io.millrace.api.source.InputStatus;
import io.millrace.api.source.ReaderOutput;
import io.millrace.api.source.Source;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import io.millrace.api.source.SourceSplit;
import io.millrace.api.time.ManualClock;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

class WatermarkPropagationTest {

    /** Records (timestamp, watermark seen when it arrived) per record. */
    static final class WatermarkProbe extends ProcessFunction<Long, long[]> {
        @Override
        public void processElement(Long value, Context ctx, Collector<long[]> out) {
            out.collect(new long[] {ctx.timestamp(), ctx.currentWatermark()});
        }
    }

    @Test
    void withDisorderWithinBound_noRecordArrivesBehindTheWatermark_andWatermarksOnlyRise() {
        Random random = new Random(7);
        for (int round = 0; round < 5; round++) {
            int bound = 1 + random.nextInt(50);
            List<Long> input = new ArrayList<>();
            for (long t = 0; t < 5_000; t++) {
                input.add(t * 10 + random.nextInt(bound * 10));
            }
            int parallelism = 1 + random.nextInt(3);
            Pipeline p = Pipeline.create(new PipelineConfig().parallelism(parallelism).batchSize(1 + random.nextInt(100)));
            CollectSink<long[]> sink = new CollectSink<>();
            p.fromSource(new CollectionSource<>(input),
                            WatermarkStrategy.<Long>boundedOutOfOrderness(Duration.ofMillis(bound * 10L)).withTimestampAssigner((v, ts) -> v),
                            "timed")
                    .rebalance()
                    .process(new WatermarkProbe())
                    .parallelism(1)
                    .sinkTo(sink)
                    .parallelism(1);
            JobResult result = p.execute("watermarks");

            long lastWatermark = Long.MIN_VALUE;
            for (long[] seen : sink.results()) {
                assertThat(seen[0]).as("timestamp is after the watermark it met").isGreaterThan(seen[1]);
                assertThat(seen[1]).isGreaterThanOrEqualTo(lastWatermark);
                lastWatermark = seen[1];
            }
            assertThat(sink.results()).hasSize(input.size());
            assertThat(lastWatermark).as("the watermark moved during the run").isGreaterThan(Long.MIN_VALUE);
            assertThat(result.metrics().watermark("process")).isEqualTo(Long.MAX_VALUE);
        }
    }

    /** An endless source fed from a queue by the test; one split. */
    static final class QueueSource implements Source<Long, QueueSource.Split> {
        static final ConcurrentLinkedQueue<Long> QUEUE = new ConcurrentLinkedQueue<>();

        record Split(String splitId) implements SourceSplit {}

        @Override
        public Boundedness boundedness() {
            return Boundedness.CONTINUOUS_UNBOUNDED;
        }

        @Override
        public List<Split> createSplits(int parallelism) {
            return List.of(new Split("queue"));
        }

        @Override
        public int maxParallelism() {
            return 1;
        }

        @Override
        public SourceReader<Long, Split> createReader(SourceReaderContext context) {
            return new SourceReader<>() {
                @Override
                public void addSplits(List<Split> splits) {}

                @Override
                public void noMoreSplits() {}

                @Override
                public InputStatus pollNext(ReaderOutput<Long> output) {
                    Long v = QUEUE.poll();
                    if (v == null) {
                        return InputStatus.NOTHING_AVAILABLE;
                    }
                    output.split("queue").collect(v, v);
                    return InputStatus.MORE_AVAILABLE;
                }

                @Override
                public List<Split> snapshotState() {
                    return List.of(new Split("queue"));
                }

                @Override
                public void close() {}
            };
        }
    }

    @Test
    void whenOneSourceFallsSilent_idlenessLetsTheWatermarkAdvance() throws Exception {
        ManualClock clock = new ManualClock(1_000_000);
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1).clock(clock));
        WatermarkStrategy<Long> strategy = WatermarkStrategy.<Long>monotonous().withIdleness(Duration.ofSeconds(5));
        List<Long> busy = new ArrayList<>();
        for (long t = 0; t < 1000; t++) {
            busy.add(t);
        }
        CollectSink<long[]> sink = new CollectSink<>();
        var silent = p.fromSource(new QueueSource(), strategy, "silent");
        var steady = p.fromSource(new CollectionSource<>(busy), strategy.withTimestampAssigner((v, ts) -> v), "steady");
        steady.union(silent).process(new WatermarkProbe()).name("probe").sinkTo(sink);
        JobHandle job = p.executeAsync("idleness");
        try {
            // the silent source has not been idle for 5 s yet: it holds the watermark back
            Await.until("the steady source read", () -> job.metrics().sum("probe", m -> m.recordsIn()) == 1000);
            assertThat(job.metrics().watermark("probe")).isEqualTo(Long.MIN_VALUE);
            clock.advance(Duration.ofSeconds(6));
            // now silent is idle; steady has ended (+inf); the probe's watermark must reach +inf
            Await.until("the watermark reaches +inf", () -> job.metrics().watermark("probe") == Long.MAX_VALUE);
            assertThat(job.metrics().watermark("probe")).isEqualTo(Long.MAX_VALUE);
        } finally {
            job.cancel();
            job.await(Duration.ofSeconds(10));
        }
    }
}
