package io.millrace.runtime.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.metrics.ChannelMetrics;
import io.millrace.api.metrics.JobMetrics;
import io.millrace.api.metrics.TaskMetrics;
import io.millrace.api.sink.Sink;
import io.millrace.api.sink.SinkWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.nio.file.Path;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.generator.GeneratorSource;
import org.junit.jupiter.api.io.TempDir;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BackpressureTest {
    /** A sink that stops at its first record until released: the slowest sink there is. */
    static final class GatedSink implements Sink<Integer> {
        final CountDownLatch gate = new CountDownLatch(1);
        final AtomicLong written = new AtomicLong();

        @Override
        public SinkWriter<Integer> createWriter(io.millrace.api.sink.SinkContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(Integer value, long timestamp) throws Exception {
                    gate.await();
                    written.incrementAndGet();
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }

    @Test
    void whenSinkStalls_thenQueuesStayWithinBoundAndSourcePauses_andNothingIsLost() throws Exception {
        int total = 200_000;
        List<Integer> input = IntStream.range(0, total).boxed().collect(Collectors.toList());
        PipelineConfig config = new PipelineConfig().parallelism(2).batchSize(64).channelCapacity(3);
        Pipeline p = Pipeline.create(config);
        GatedSink sink = new GatedSink();
        p.fromCollection(input).name("numbers")
                .rebalance().map(x -> x + 1).name("plus-one")
                .keyBy(x -> x % 7).map(x -> x).name("after-hash")
                .sinkTo(sink).name("gated");
        JobHandle job = p.executeAsync("backpressure");

        JobMetrics stalled = waitUntil(job, m -> sourcePauses(m) > 0 && channelsFull(m));
        for (ChannelMetrics c : stalled.channels()) {
            assertThat(c.highWater()).as("fill of %s", c).isLessThanOrEqualTo(c.capacity());
        }
        long readWhileStalled = stalled.sum("numbers", om -> om.recordsOut());
        // what can be in flight: every channel full, one open batch per channel, one batch in each task's hands
        int channels = stalled.channels().size();
        long bound = (long) channels * (config.channelCapacity() + 2) * config.batchSize() + 2L * config.batchSize();
        assertThat(readWhileStalled).isLessThanOrEqualTo(bound).isLessThan(total);

        sink.gate.countDown();
        JobResult result = job.await(Duration.ofSeconds(60));
        assertThat(result).isNotNull();
        assertThat(sink.written.get()).isEqualTo(total);
        for (ChannelMetrics c : result.metrics().channels()) {
            assertThat(c.highWater()).isLessThanOrEqualTo(c.capacity());
        }
    }

    /** Whether {@link #slowWhileFlagged} takes a millisecond per record; static: functions may be copied per subtask. */
    private static volatile boolean slow = true;

    private static Integer slowWhileFlagged(Long x) {
        if (slow) {
            LockSupport.parkNanos(1_000_000L); // a slow operator: a sink or lookup that takes 1 ms per record
        }
        return 1;
    }

    @Test
    void underBackpressure_channelsShrinkToTwoBatches_checkpointsComplete_andChannelsGrowBackWhenTheConsumerSpeedsUp(
            @TempDir Path dir) throws Exception {
        slow = true;
        PipelineConfig config = new PipelineConfig().parallelism(2).batchSize(64).channelCapacity(32)
                .channelInFlightTarget(Duration.ofMillis(100));
        config.checkpoints().directory(dir).interval(Duration.ofMillis(200));
        Pipeline p = Pipeline.create(config);
        p.fromSource(GeneratorSource.builder(i -> i).unbounded().build(), WatermarkStrategy.<Long>noWatermarks(), "numbers")
                .rebalance().map(BackpressureTest::slowWhileFlagged).name("slow")
                .sinkTo(new CountingSink()).name("count");
        JobHandle job = p.executeAsync("in-flight sizing");
        try {
            JobMetrics shrunk = waitUntil(job, m -> intoSlow(m).size() == 4 && intoSlow(m).stream().allMatch(c -> c.bound() == 2));
            // a 1 ms-per-record consumer reads about 1.5 batches of 64 per 100 ms: a full channel would hold 2 s
            assertThat(intoSlow(shrunk)).allSatisfy(c -> assertThat(c.capacity()).isEqualTo(32));
            long id = job.triggerCheckpoint().get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(id).isPositive();
            assertThat(intoSlow(job.metrics())).allSatisfy(c -> assertThat(c.highWater()).isLessThanOrEqualTo(32));

            slow = false;
            waitUntil(job, m -> intoSlow(m).stream().allMatch(c -> c.bound() == 32));
        } finally {
            slow = false;
            job.cancel();
        }
    }

    private static List<ChannelMetrics> intoSlow(JobMetrics m) {
        return m.channels().stream().filter(c -> c.to().equals("slow")).collect(Collectors.toList());
    }

    /** Counts what it gets; never blocks. */
    static final class CountingSink implements Sink<Integer> {
        @Override
        public SinkWriter<Integer> createWriter(io.millrace.api.sink.SinkContext context) {
            return new SinkWriter<>() {
                long n;

                @Override
                public void write(Integer value, long timestamp) {
                    n += value;
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }

    private static long sourcePauses(JobMetrics m) {
        return m.tasks().stream().mapToLong(TaskMetrics::sourcePauses).sum();
    }

    private static boolean channelsFull(JobMetrics m) {
        return m.channels().stream().anyMatch(c -> c.size() >= c.bound());
    }

    private static JobMetrics waitUntil(JobHandle job, java.util.function.Predicate<JobMetrics> condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            JobMetrics m = job.metrics();
            if (condition.test(m)) {
                return m;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(200_000);
        }
        throw new AssertionError("condition not reached; last metrics: " + job.metrics());
    }
}
