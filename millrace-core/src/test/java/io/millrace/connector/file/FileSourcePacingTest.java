package io.millrace.connector.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.source.InputStatus;
import io.millrace.api.source.SourceReader;
import io.millrace.api.time.ManualClock;
import io.millrace.connector.RecordingOutput;
import io.millrace.connector.TestReaderContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code FileSource.Builder.ratePerSecond}: a replay paced by the reader context's clock, stepped by hand. */
class FileSourcePacingTest {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(0);

    private Path lines(String name, int from, int count) throws Exception {
        StringBuilder text = new StringBuilder();
        for (int i = from; i < from + count; i++) {
            text.append(i).append(i % 50 == 7 ? ",broken" : "").append('\n');
            if (i % 40 == 0) {
                text.append('\n'); // a blank line: not a record, takes no permit
            }
        }
        return Files.writeString(dir.resolve(name), text.toString());
    }

    private static FileSource.Builder<Long> builder() {
        return FileSource.builder(CsvFormat.withColumns("n").map(r -> r.getLong("n")));
    }

    /** Polls until the reader has nothing more now or ends; returns the last status. */
    private static InputStatus drainNow(SourceReader<Long, FileSplit> reader, RecordingOutput<Long> out) throws Exception {
        InputStatus last;
        int polls = 0;
        do {
            last = reader.pollNext(out);
            assertThat(++polls).as("polls without end").isLessThan(10_000);
        } while (last == InputStatus.MORE_AVAILABLE);
        return last;
    }

    @Test
    void pacedReplay_neverRunsAheadOfTheClock_countsBadRecords_andSkipsBlankLinesFree() throws Exception {
        Path a = lines("a.csv", 0, 300);
        Path b = lines("b.csv", 300, 300);
        FileSource<Long> source = builder().path(a).path(b).ratePerSecond(400).build();
        // two subtasks: this reader gets 200 records per second
        SourceReader<Long, FileSplit> reader = source.createReader(new TestReaderContext(0, 2, clock, "replay"));
        reader.addSplits(source.createSplits(1));
        reader.noMoreSplits();
        RecordingOutput<Long> out = new RecordingOutput<>();

        assertThat(reader.pollNext(out)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        assertThat(reader.nanosUntilAvailable()).isEqualTo(5_000_000L);

        Random random = new Random(5);
        long elapsedMillis = 0;
        InputStatus last = InputStatus.NOTHING_AVAILABLE;
        while (last != InputStatus.END_OF_INPUT) {
            int advance = random.nextInt(150);
            clock.advance(Duration.ofMillis(advance));
            elapsedMillis += advance;
            last = drainNow(reader, out);
            long due = Math.min(600, elapsedMillis * 200 / 1000);
            assertThat((long) out.values.size() + out.badRecords.size()).as("records after %d ms", elapsedMillis).isEqualTo(due);
            assertThat(elapsedMillis).as("the replay ends when its 600 records are due").isLessThan(3_000 + 150);
        }
        assertThat(elapsedMillis).isGreaterThanOrEqualTo(3_000);
        assertThat(out.values).hasSize(588).startsWith(0L, 1L, 2L).endsWith(598L, 599L);
        assertThat(out.badRecords).hasSize(12);
        assertThat(out.released).containsExactly(a.toString(), b.toString());
    }

    @Test
    void readersOfOneStart_shareTheOrigin_soALaterReaderCatchesUpAtOnce() throws Exception {
        FileSource<Long> source = builder().path(lines("a.csv", 0, 1_000)).path(lines("b.csv", 1_000, 1_000))
                .ratePerSecond(1_000).build();
        var splits = source.createSplits(2);
        SourceReader<Long, FileSplit> first = source.createReader(new TestReaderContext(0, 2, clock, "replay"));
        SourceReader<Long, FileSplit> second = source.createReader(new TestReaderContext(1, 2, clock, "replay"));
        first.addSplits(splits.subList(0, 1));
        second.addSplits(splits.subList(1, 2));
        RecordingOutput<Long> one = new RecordingOutput<>();
        RecordingOutput<Long> two = new RecordingOutput<>();

        first.pollNext(one);
        clock.advance(Duration.ofMillis(400));
        drainNow(first, one);
        drainNow(second, two);

        assertThat(one.values.size() + one.badRecords.size()).isEqualTo(200);
        assertThat(two.values.size() + two.badRecords.size()).as("paced from the first reader's first poll").isEqualTo(200);
    }

    @Test
    void unpacedByDefault_andTheRateMustBePositiveAndFinite() throws Exception {
        FileSource<Long> source = builder().path(lines("a.csv", 0, 2_000)).build();
        SourceReader<Long, FileSplit> reader = source.createReader(new TestReaderContext(0, 1, clock, "replay"));
        reader.addSplits(source.createSplits(1));
        reader.noMoreSplits();
        RecordingOutput<Long> out = new RecordingOutput<>();
        assertThat(drainNow(reader, out)).as("the clock never moves").isEqualTo(InputStatus.END_OF_INPUT);
        assertThat(out.values.size() + out.badRecords.size()).isEqualTo(2_000);
        assertThat(source.ratePerSecond()).isInfinite();

        assertThatThrownBy(() -> builder().ratePerSecond(0)).hasMessageContaining("option 'ratePerSecond' must be positive");
        assertThatThrownBy(() -> builder().ratePerSecond(Double.POSITIVE_INFINITY)).hasMessageContaining("unlimitedRate()");
    }
}
