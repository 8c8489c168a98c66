package io.millrace.runtime.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.source.Boundedness;
import io.millrace.api.source.InputStatus;
import io.millrace.api.source.ReaderOutput;
import io.millrace.api.source.Source;
import io.millrace.api.source.SourceReader;
import io.millrace.api.source.SourceReaderContext;
import io.millrace.api.source.SourceSplit;
import io.millrace.api.time.Clock;
import io.millrace.api.time.WatermarkStrategy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A source whose polls yield one record each (a paced generator, an MQTT subscription, a quiet Kafka partition)
 * costs the engine few clock reads per poll: the source task reads the milliseconds once per turn of its loop and
 * the poll's activity stamp and watermark update use that reading. Clock reads are not free (about 45 ns on a
 * virtual machine, as much as generating an event), and at one record per poll they were a quarter of a paced
 * source's time.
 */
class SourcePollClockReadsTest {
    static final int RECORDS = 20_000;
    static final AtomicLong READS = new AtomicLong();

    /** The system clock, counting its reads. */
    static final class CountingClock implements Clock {
        @Override
        public long millis() {
            READS.incrementAndGet();
            return System.currentTimeMillis();
        }

        @Override
        public long nanoTime() {
            READS.incrementAndGet();
            return System.nanoTime();
        }
    }

    /** Emits 0, 1, ..., RECORDS - 1, one per poll. */
    static final class OnePerPoll implements Source<Long, OnePerPoll.Split> {
        record Split(String splitId) implements SourceSplit {}

        @Override
        public Boundedness boundedness() {
            return Boundedness.BOUNDED;
        }

        @Override
        public List<Split> createSplits(int parallelism) {
            return List.of(new Split("only"));
        }

        @Override
        public int maxParallelism() {
            return 1;
        }

        @Override
        public SourceReader<Long, Split> createReader(SourceReaderContext context) {
            return new SourceReader<>() {
                private long next;

                @Override
                public void addSplits(List<Split> splits) {}

                @Override
                public void noMoreSplits() {}

                @Override
                public InputStatus pollNext(ReaderOutput<Long> output) {
                    if (next == RECORDS) {
                        return InputStatus.END_OF_INPUT;
                    }
                    output.split("only").collect(next, next);
                    next++;
                    return InputStatus.MORE_AVAILABLE;
                }

                @Override
                public List<Split> snapshotState() {
                    return List.of(new Split("only"));
                }

                @Override
                public void close() {}
            };
        }
    }

    @Test
    void aPollThatYieldsOneRecord_costsAtMostTwoClockReads() {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1).clock(new CountingClock()));
        CollectSink<Long> sink = new CollectSink<>();
        p.fromSource(new OnePerPoll(), WatermarkStrategy.<Long>monotonous().withIdleness(Duration.ofSeconds(30)), "one-per-poll")
                .sinkTo(sink);
        READS.set(0);
        p.execute("one record per poll");
        long reads = READS.get();

        assertThat(sink.results()).hasSize(RECORDS);
        // per poll: the loop's milliseconds (timers, the split's activity, idleness) and the flush check's nanoseconds;
        // the rest is the job's start and end
        assertThat(reads).as("clock reads for %d polls", RECORDS).isLessThan(RECORDS * 5L / 2);
    }
}
