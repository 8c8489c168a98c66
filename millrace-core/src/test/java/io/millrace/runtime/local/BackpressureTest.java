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

    private static long sourcePauses(JobMetrics m) {
        return m.tasks().stream().mapToLong(TaskMetrics::sourcePauses).sum();
    }

    private static boolean channelsFull(JobMetrics m) {
        return m.channels().stream().anyMatch(c -> c.size() == c.capacity());
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
