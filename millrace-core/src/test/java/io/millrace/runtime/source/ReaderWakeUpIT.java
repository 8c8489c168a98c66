package io.millrace.runtime.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.MapFunction;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.source.Boundedness;
import io.millrace.api.source.InputStatus;
import io.millrace.api.source.ReaderOutput;
import io.millrace.api.source.Source;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import io.millrace.api.source.SourceSplit;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.testing.Await;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A reader that says it wakes its task ({@code nanosUntilAvailable() == Long.MAX_VALUE}) is not polled every
 * millisecond while it has nothing, and a record it gets from another thread is read soon after its wake-up.
 */
class ReaderWakeUpIT {
    /** Per test: the queue another thread fills, the reader's context (to wake it), and its poll count. */
    static final Map<String, ConcurrentLinkedQueue<Long>> QUEUES = new ConcurrentHashMap<>();
    static final Map<String, AtomicReference<SourceReaderContext>> CONTEXTS = new ConcurrentHashMap<>();
    static final Map<String, AtomicLong> POLLS = new ConcurrentHashMap<>();
    static final Map<String, AtomicLong> EMPTY_POLLS = new ConcurrentHashMap<>();

    record Only() implements SourceSplit {
        @Override
        public String splitId() {
            return "only";
        }
    }

    static final class PushedSource implements Source<Long, Only> {
        final String key;

        PushedSource(String key) {
            this.key = key;
        }

        @Override
        public Boundedness boundedness() {
            return Boundedness.CONTINUOUS_UNBOUNDED;
        }

        @Override
        public List<Only> createSplits(int parallelism) {
            return List.of(new Only());
        }

        @Override
        public SourceReader<Long, Only> createReader(SourceReaderContext context) {
            CONTEXTS.get(key).set(context);
            return new SourceReader<>() {
                @Override
                public void addSplits(List<Only> splits) {}

                @Override
                public void noMoreSplits() {}

                @Override
                public InputStatus pollNext(ReaderOutput<Long> output) {
                    POLLS.get(key).incrementAndGet();
                    Long v = QUEUES.get(key).poll();
                    if (v == null) {
                        EMPTY_POLLS.get(key).incrementAndGet();
                        return InputStatus.NOTHING_AVAILABLE;
                    }
                    output.collect(v);
                    return InputStatus.MORE_AVAILABLE;
                }

                @Override
                public long nanosUntilAvailable() {
                    return Long.MAX_VALUE;
                }

                @Override
                public List<Only> snapshotState() {
                    return List.of(new Only());
                }

                @Override
                public void close() {}
            };
        }

        @Override
        public int maxParallelism() {
            return 1;
        }
    }

    /** Maps a pushed value (its push time in nanos) to how long it took to reach the map. */
    static final class Latency implements MapFunction<Long, Long> {
        @Override
        public Long map(Long pushedAt) {
            return System.nanoTime() - pushedAt;
        }
    }

    @Test
    void whenTheReaderWakesItsTask_thenItIsNotPolledEveryMillisecond_andPushedRecordsArriveAtOnce() throws Exception {
        String key = "wake";
        QUEUES.put(key, new ConcurrentLinkedQueue<>());
        CONTEXTS.put(key, new AtomicReference<>());
        POLLS.put(key, new AtomicLong());
        EMPTY_POLLS.put(key, new AtomicLong());
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
        CollectSink<Long> sink = new CollectSink<>();
        p.fromSource(new PushedSource(key), WatermarkStrategy.noWatermarks(), "pushed").map(new Latency()).sinkTo(sink);
        JobHandle job = p.executeAsync("wake-up");
        Await.until("the reader polled", () -> POLLS.get(key).get() > 0);

        // nothing arrives: the time the task takes to come back ten times tells how often it polls an empty reader
        long pollsBefore = POLLS.get(key).get();
        long start = System.nanoTime();
        Await.until("ten polls without records", () -> POLLS.get(key).get() - pollsBefore >= 10);
        long quietMillis = (System.nanoTime() - start) / 1_000_000;
        long quietPolls = POLLS.get(key).get() - pollsBefore;
        assertThat(quietPolls).as("polls in %d ms without records (one per 50 ms park at most, plus checkpoints)", quietMillis)
                .isLessThan(quietMillis / 10);

        for (int i = 0; i < 11; i++) {
            int before = sink.size();
            QUEUES.get(key).add(System.nanoTime());
            CONTEXTS.get(key).get().wakeUp();
            Await.until("pushed record " + i + " read", () -> sink.size() > before);
            // the task finds the reader empty again after the record, so it goes back to its long park
            long emptyAtRead = EMPTY_POLLS.get(key).get();
            Await.until("an empty poll after pushed record " + i, () -> EMPTY_POLLS.get(key).get() > emptyAtRead);
        }
        job.cancel();
        job.await();
        List<Long> latencies = new ArrayList<>(sink.results());
        Collections.sort(latencies);
        assertThat(latencies.get(latencies.size() / 2) / 1_000_000).as("median latency in ms of a pushed record, sorted: %s", latencies)
                .isLessThan(15);
    }
}
