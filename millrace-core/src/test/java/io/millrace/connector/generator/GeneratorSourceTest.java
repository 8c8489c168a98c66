package io.millrace.connector.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.millrace.api.source.Boundedness;
import io.millrace.api.source.InputStatus;
import io.millrace.api.source.SourceReader;
import io.millrace.api.time.ManualClock;
import io.millrace.connector.ReaderDriver;
import io.millrace.connector.RecordingOutput;
import io.millrace.connector.TestReaderContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class GeneratorSourceTest {
    private final ManualClock clock = new ManualClock(1_000);

    @Test
    void boundedSplitsAreContiguousRangesThatCoverEveryIndexOnce() throws Exception {
        GeneratorSource<Long> source = GeneratorSource.of(i -> i, 1_000);
        List<IndexRange> splits = source.createSplits(3);

        List<Long> all = new ArrayList<>();
        for (IndexRange split : splits) {
            RecordingOutput<Long> out = new RecordingOutput<>();
            SourceReader<Long, IndexRange> reader = source.createReader(new TestReaderContext(0, 3, clock, "gen"));
            reader.addSplits(List.of(split));
            reader.noMoreSplits();
            ReaderDriver.drain(reader, out, 100);
            assertThat(out.values).isSortedAccordingTo(Long::compare);
            assertThat(out.values).hasSize((int) (split.end() - split.next()));
            assertThat(out.splitIds).containsOnly(split.splitId());
            assertThat(out.released).containsExactly(split.splitId());
            all.addAll(out.values);
        }
        assertThat(all).containsExactlyElementsOf(LongStream.range(0, 1_000).boxed().toList());
        assertThat(splits).extracting(s -> s.end() - s.next()).containsExactly(334L, 333L, 333L);
    }

    @Test
    void whenCountSmallerThanParallelism_thenEmptySplitsEndAtOnce() throws Exception {
        GeneratorSource<Long> source = GeneratorSource.of(i -> i, 1);
        List<IndexRange> splits = source.createSplits(2);
        RecordingOutput<Long> out = new RecordingOutput<>();
        SourceReader<Long, IndexRange> reader = source.createReader(TestReaderContext.single(clock));
        reader.addSplits(splits);
        reader.noMoreSplits();
        ReaderDriver.drain(reader, out, 10);
        assertThat(out.values).containsExactly(0L);
        assertThat(out.released).containsExactlyInAnyOrder("indices-0", "indices-1");
    }

    @Test
    void whenRestoredFromSnapshotAtRandomPoints_thenOutputEqualsUninterruptedRead() throws Exception {
        Random random = new Random(7);
        GeneratorSource<String> source = GeneratorSource.builder(i -> "e" + i).count(5_000).build();
        List<String> expected = LongStream.range(0, 5_000).mapToObj(i -> "e" + i).toList();
        for (int round = 0; round < 20; round++) {
            List<IndexRange> state = source.createSplits(1);
            List<String> seen = new ArrayList<>();
            boolean ended = false;
            while (!ended) {
                SourceReader<String, IndexRange> reader = source.createReader(TestReaderContext.single(clock));
                reader.addSplits(state);
                reader.noMoreSplits();
                RecordingOutput<String> out = new RecordingOutput<>();
                int polls = 1 + random.nextInt(5);
                for (int i = 0; i < polls && !ended; i++) {
                    ended = reader.pollNext(out) == InputStatus.END_OF_INPUT;
                }
                state = reader.snapshotState();
                reader.close();
                seen.addAll(out.values);
            }
            assertThat(seen).containsExactlyElementsOf(expected);
            assertThat(state).isEmpty();
        }
    }

    @Test
    void unboundedSplitsInterleaveIndicesAndSnapshotTheirPositions() throws Exception {
        GeneratorSource<Long> source = GeneratorSource.builder(i -> i).build();
        assertThat(source.boundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        SourceReader<Long, IndexRange> reader = source.createReader(new TestReaderContext(1, 2, clock, "gen"));
        reader.addSplits(List.of(source.createSplits(2).get(1)));
        reader.noMoreSplits();
        RecordingOutput<Long> out = new RecordingOutput<>();

        assertThat(reader.pollNext(out)).isEqualTo(InputStatus.MORE_AVAILABLE);

        assertThat(out.values).hasSize(GeneratorSource.BATCH);
        assertThat(out.values.subList(0, 4)).containsExactly(1L, 3L, 5L, 7L);
        assertThat(reader.snapshotState()).containsExactly(
                new IndexRange("indices-1", 1 + 2L * GeneratorSource.BATCH, Long.MAX_VALUE, 2));
    }

    @Test
    void whenRateLimited_thenRecordsNeverRunAheadOfTheClock() throws Exception {
        GeneratorSource<Long> source = GeneratorSource.builder(i -> i).count(10_000).ratePerSecond(200).build();
        // two subtasks: this reader gets 100 records per second
        SourceReader<Long, IndexRange> reader = source.createReader(new TestReaderContext(0, 2, clock, "gen"));
        reader.addSplits(List.of(source.createSplits(2).get(0)));
        reader.noMoreSplits();
        RecordingOutput<Long> out = new RecordingOutput<>();

        assertThat(reader.pollNext(out)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        assertThat(out.values).isEmpty();

        Random random = new Random(3);
        long elapsedMillis = 0;
        for (int step = 0; step < 50; step++) {
            int advance = random.nextInt(120);
            clock.advance(Duration.ofMillis(advance));
            elapsedMillis += advance;
            InputStatus last;
            do {
                last = reader.pollNext(out);
            } while (last == InputStatus.MORE_AVAILABLE);
            assertThat(last).isEqualTo(InputStatus.NOTHING_AVAILABLE);
            assertThat(out.values).hasSize((int) (elapsedMillis * 100 / 1000));
        }
    }

    /** Polls until the reader has nothing more now; returns how many records it emitted. */
    private static int drain(SourceReader<Long, IndexRange> reader, RecordingOutput<Long> out) throws Exception {
        int before = out.values.size();
        while (reader.pollNext(out) == InputStatus.MORE_AVAILABLE) {
            // emits at most a batch per poll
        }
        return out.values.size() - before;
    }

    @Test
    void readersOfOneStart_paceFromTheFirstPollOfAny_andTheNextStartPacesAfresh() throws Exception {
        GeneratorSource<Long> source = GeneratorSource.builder(i -> i).unbounded().ratePerSecond(200).build();
        List<IndexRange> splits = source.createSplits(2);
        List<SourceReader<Long, IndexRange>> readers = List.of(
                source.createReader(new TestReaderContext(0, 2, clock, "gen")),
                source.createReader(new TestReaderContext(1, 2, clock, "gen")));
        for (int i = 0; i < 2; i++) {
            readers.get(i).addSplits(List.of(splits.get(i)));
        }
        RecordingOutput<Long> first = new RecordingOutput<>();
        RecordingOutput<Long> second = new RecordingOutput<>();
        assertThat(drain(readers.get(0), first)).isZero(); // the origin: now
        clock.advance(Duration.ofMillis(300));
        // the second reader's thread starts 300 ms late: it is on schedule at once, 100 records per second since the origin
        assertThat(drain(readers.get(1), second)).isEqualTo(30);
        assertThat(drain(readers.get(0), first)).isEqualTo(30);

        // a restart creates new readers: they pace from their own first poll, not from the old origin
        SourceReader<Long, IndexRange> restarted = source.createReader(new TestReaderContext(0, 2, clock, "gen"));
        restarted.addSplits(List.of(splits.get(0)));
        clock.advance(Duration.ofSeconds(10));
        RecordingOutput<Long> again = new RecordingOutput<>();
        assertThat(drain(restarted, again)).isZero();
        clock.advance(Duration.ofMillis(100));
        assertThat(drain(restarted, again)).isEqualTo(10);
    }

    @Test
    void whenAFarBehindReaderCatchesUp_thenEachPollEmitsAtMostABatch() throws Exception {
        GeneratorSource<Long> source = GeneratorSource.builder(i -> i).count(100_000).ratePerSecond(1_000_000).build();
        SourceReader<Long, IndexRange> reader = source.createReader(TestReaderContext.single(clock));
        reader.addSplits(source.createSplits(1));
        RecordingOutput<Long> out = new RecordingOutput<>();
        reader.pollNext(out);
        clock.advance(Duration.ofSeconds(1));

        assertThat(reader.pollNext(out)).isEqualTo(InputStatus.MORE_AVAILABLE);

        assertThat(out.values).hasSize(GeneratorSource.BATCH);
    }

    @Test
    void aCaughtUpFastReader_waitsUntilAChunkIsDue_andSaysHowLongThatIs() throws Exception {
        // one reader at 1 M records/s: a chunk is 100 µs of its rate, 100 records
        GeneratorSource<Long> source = GeneratorSource.builder(i -> i).count(1_000_000).ratePerSecond(1_000_000).build();
        NanoClock clock = new NanoClock();
        SourceReader<Long, IndexRange> reader = source.createReader(TestReaderContext.single(clock));
        assertThat(reader.nanosUntilAvailable()).as("without splits it cannot tell").isEqualTo(-1);
        reader.addSplits(source.createSplits(1));
        RecordingOutput<Long> out = new RecordingOutput<>();
        assertThat(reader.pollNext(out)).isEqualTo(InputStatus.NOTHING_AVAILABLE); // the pacing starts now
        assertThat(reader.nanosUntilAvailable()).isCloseTo(100_000L, within(1L));

        clock.nanos += 90_000; // 90 records due: less than a chunk
        assertThat(reader.pollNext(out)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        assertThat(out.values).isEmpty();
        assertThat(reader.nanosUntilAvailable()).isCloseTo(10_000L, within(1L));

        clock.nanos += 10_500;
        assertThat(reader.pollNext(out)).isEqualTo(InputStatus.MORE_AVAILABLE);
        assertThat(out.values).hasSize(100).startsWith(0L, 1L).endsWith(99L);
    }

    /** A clock with nanosecond steps (ManualClock moves by milliseconds). */
    private static final class NanoClock implements io.millrace.api.time.Clock {
        long nanos = 5_000_000_000L;

        @Override
        public long millis() {
            return nanos / 1_000_000;
        }

        @Override
        public long nanoTime() {
            return nanos;
        }
    }

    @Test
    void aSlowReader_emitsEachRecordAsSoonAsItIsDue() throws Exception {
        GeneratorSource<Long> source = GeneratorSource.builder(i -> i).count(10).ratePerSecond(1_000).build();
        SourceReader<Long, IndexRange> reader = source.createReader(TestReaderContext.single(clock));
        reader.addSplits(source.createSplits(1));
        RecordingOutput<Long> out = new RecordingOutput<>();
        reader.pollNext(out);
        clock.advance(Duration.ofMillis(1));
        assertThat(reader.pollNext(out)).isEqualTo(InputStatus.MORE_AVAILABLE);
        assertThat(out.values).containsExactly(0L);
    }

    @Test
    void timestampsFunctionGivesEachRecordItsEventTime() throws Exception {
        GeneratorSource<Long> source = GeneratorSource.builder(i -> i).count(3).timestamps(i -> 1_000 + 10 * i).build();
        SourceReader<Long, IndexRange> reader = source.createReader(TestReaderContext.single(clock));
        reader.addSplits(source.createSplits(1));
        reader.noMoreSplits();
        RecordingOutput<Long> out = new RecordingOutput<>();
        ReaderDriver.drain(reader, out, 5);
        assertThat(out.timestamps).containsExactly(1_000L, 1_010L, 1_020L);
    }

    @Test
    void withoutSplitsAndNoMoreComing_thenEndOfInput() throws Exception {
        GeneratorSource<Long> source = GeneratorSource.of(i -> i, 3);
        SourceReader<Long, IndexRange> reader = source.createReader(TestReaderContext.single(clock));
        RecordingOutput<Long> out = new RecordingOutput<>();
        assertThat(reader.pollNext(out)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        reader.noMoreSplits();
        assertThat(reader.pollNext(out)).isEqualTo(InputStatus.END_OF_INPUT);
    }

    @Test
    void invalidOptionsAreRejectedWithTheOptionName() {
        assertThatThrownBy(() -> GeneratorSource.builder(i -> i).count(-2))
                .hasMessageContaining("'count'");
        assertThatThrownBy(() -> GeneratorSource.builder(i -> i).ratePerSecond(0))
                .hasMessageContaining("'ratePerSecond'").hasMessageContaining("positive");
    }
}
