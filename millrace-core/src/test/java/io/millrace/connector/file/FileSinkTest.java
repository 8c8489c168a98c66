package io.millrace.connector.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.sink.SinkContext;
import io.millrace.api.sink.SinkWriter;
import io.millrace.api.time.Clock;
import io.millrace.api.time.ManualClock;
import io.millrace.connector.ReaderDriver;
import io.millrace.connector.RecordingOutput;
import io.millrace.connector.TestReaderContext;
import io.millrace.api.source.SourceReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSinkTest {
    @TempDir
    Path dir;

    record Reading(String machine, double value, String note) {}

    record Context(int subtaskIndex, int parallelism, Clock clock, String sinkName) implements SinkContext {}

    private final List<Reading> readings = List.of(
            new Reading("M1", 1.5, "plain"),
            new Reading("M2", 2.0, "comma, \"quote\"\nand line break"),
            new Reading("M3", -3.25, null));

    private <T> void writeAll(FileSink<T> sink, int subtask, List<T> values) throws Exception {
        try (SinkWriter<T> writer = sink.createWriter(new Context(subtask, 2, new ManualClock(0), "sink"))) {
            for (T v : values) {
                writer.write(v, 0);
            }
            writer.flush(true);
        }
    }

    private <T> List<T> readBack(FileSource<T> source) throws Exception {
        SourceReader<T, FileSplit> reader = source.createReader(TestReaderContext.single(new ManualClock(0)));
        reader.addSplits(source.createSplits(1));
        reader.noMoreSplits();
        RecordingOutput<T> out = new RecordingOutput<>();
        ReaderDriver.drain(reader, out, 100);
        assertThat(out.badRecords).isEmpty();
        return out.values;
    }

    @Test
    void jsonLinesSinkWritesOnePartFilePerSubtaskThatTheSourceReadsBack() throws Exception {
        FileSink<Reading> sink = FileSink.jsonLines(dir.resolve("out"));
        writeAll(sink, 1, readings);

        assertThat(sink.partFile(1)).isEqualTo(dir.resolve("out").resolve("part-1.jsonl"));
        assertThat(Files.readAllLines(sink.partFile(1))).hasSize(3);
        assertThat(readBack(FileSource.of(JsonLines.of(Reading.class), sink.partFile(1)))).isEqualTo(readings);
    }

    @Test
    void csvSinkQuotesFieldsSoThatTheCsvSourceReadsThemBack() throws Exception {
        FileSink<Reading> sink = FileSink.csv(dir, CsvEncoder.ofRecord(Reading.class));
        writeAll(sink, 0, readings);

        assertThat(Files.readString(sink.partFile(0))).startsWith("machine,value,note\nM1,1.5,plain\n");
        List<Reading> back = readBack(FileSource.of(
                CsvFormat.withHeader().map(r -> new Reading(r.get("machine"), r.getDouble("value"),
                        r.get("note").isEmpty() ? null : r.get("note"))),
                sink.partFile(0)));
        assertThat(back).isEqualTo(readings);
    }

    @Test
    void csvSinkWithAFormatterAndDelimiter() throws Exception {
        FileSink<Reading> sink = FileSink.csv(dir, CsvEncoder.<Reading>of(List.of("m", "v"),
                r -> List.of(r.machine(), r.value())).delimiter(';'));
        writeAll(sink, 0, readings.subList(0, 2));
        assertThat(Files.readAllLines(sink.partFile(0))).containsExactly("m;v", "M1;1.5", "M2;2.0");
    }

    @Test
    void whenTheJobRunsAgain_thenThePartFileIsReplaced() throws Exception {
        FileSink<Reading> sink = FileSink.jsonLines(dir);
        writeAll(sink, 0, readings);
        writeAll(sink, 0, readings.subList(0, 1));
        assertThat(Files.readAllLines(sink.partFile(0))).hasSize(1);
    }
}
