package io.millrace.connector.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.millrace.api.source.BadRecord;
import io.millrace.api.source.InputStatus;
import io.millrace.api.source.SourceReader;
import io.millrace.api.time.ManualClock;
import io.millrace.connector.ReaderDriver;
import io.millrace.connector.RecordingOutput;
import io.millrace.connector.TestReaderContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSourceTest {
    @TempDir
    Path dir;

    record Reading(String machine, double value) {}

    private final TestReaderContext context = TestReaderContext.single(new ManualClock(0));

    private <T> RecordingOutput<T> readAll(FileSource<T> source) throws Exception {
        SourceReader<T, FileSplit> reader = source.createReader(context);
        reader.addSplits(source.createSplits(1));
        reader.noMoreSplits();
        RecordingOutput<T> out = new RecordingOutput<>();
        ReaderDriver.drain(reader, out, 10_000);
        reader.close();
        return out;
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }

    @Test
    void jsonLinesAreReadAsRecordsMapsAndTrees() throws Exception {
        Path file = write("r.jsonl", "{\"machine\":\"M1\",\"value\":1.5,\"extra\":true}\n{\"machine\":\"M2\",\"value\":2}\n");

        assertThat(readAll(FileSource.of(JsonLines.of(Reading.class), file)).values)
                .containsExactly(new Reading("M1", 1.5), new Reading("M2", 2.0));
        assertThat(readAll(FileSource.of(JsonLines.maps(), file)).values.get(1))
                .isEqualTo(Map.of("machine", "M2", "value", 2));
        RecordingOutput<JsonNode> trees = readAll(FileSource.of(JsonLines.nodes(), file));
        assertThat(trees.values.get(0).get("value").asDouble()).isEqualTo(1.5);
        assertThat(trees.splitIds).containsOnly(file.toString());
        assertThat(trees.released).containsExactly(file.toString());
        assertThat(trees.timestamps).containsOnly(Long.MIN_VALUE);
    }

    @Test
    void badJsonLinesAreReportedWithFileLineAndReasonAndTheRestIsRead() throws Exception {
        Path file = write("r.jsonl", String.join("\n",
                "{\"machine\":\"M1\",\"value\":1}",
                "{\"machine\":",
                "",
                "{\"machine\":\"M3\",\"value\":\"hot\"}",
                "null",
                "{\"machine\":\"M5\",\"value\":5} trailing",
                "{\"machine\":\"M6\",\"value\":6}"));

        RecordingOutput<Reading> out = readAll(FileSource.of(JsonLines.of(Reading.class), file));

        assertThat(out.values).containsExactly(new Reading("M1", 1), new Reading("M6", 6));
        assertThat(out.badRecords).extracting(BadRecord::location)
                .containsExactly(file + ":2", file + ":4", file + ":5", file + ":6");
        assertThat(out.badRecords).extracting(BadRecord::rawText)
                .containsExactly("{\"machine\":", "{\"machine\":\"M3\",\"value\":\"hot\"}", "null",
                        "{\"machine\":\"M5\",\"value\":5} trailing");
        assertThat(out.badRecords).allSatisfy(b -> assertThat(b.reason()).isNotBlank());
        assertThat(out.badRecords.get(2).reason()).contains("null");
    }

    @Test
    void csvWithHeaderHandlesQuotedFieldsDelimitersAndLineBreaks() throws Exception {
        Path file = write("r.csv", "machine;note;value\r\n"
                + "M1;plain;1.5\r\n"
                + "M2;\"semi;colon \"\"quoted\"\"\";2\r\n"
                + "M3;\"two\nlines\";3\n"
                + "M4;;4");

        RecordingOutput<CsvRow> out = readAll(FileSource.of(CsvFormat.withHeader().delimiter(';'), file));

        assertThat(out.values).extracting(r -> r.get("note"))
                .containsExactly("plain", "semi;colon \"quoted\"", "two\nlines", "");
        assertThat(out.values.get(3).asMap()).containsExactly(
                Map.entry("machine", "M4"), Map.entry("note", ""), Map.entry("value", "4"));
        assertThat(out.badRecords).isEmpty();
    }

    @Test
    void badCsvRowsAreReportedAndMappingErrorsCarryTheReason() throws Exception {
        Path file = write("r.csv", String.join("\n",
                "machine,value",
                "M1,1",
                "M2,2,extra",
                "M3,warm",
                "\"M4\"x,4",
                "M5,5",
                "\"M6,6"));
        LineFormat<Reading> format = CsvFormat.withHeader().map(r -> new Reading(r.get("machine"), r.getDouble("value")));

        RecordingOutput<Reading> out = readAll(FileSource.of(format, file));

        assertThat(out.values).containsExactly(new Reading("M1", 1), new Reading("M5", 5));
        assertThat(out.badRecords).extracting(BadRecord::location)
                .containsExactly(file + ":3", file + ":4", file + ":5", file + ":7");
        assertThat(out.badRecords.get(0).reason()).isEqualTo("expected 2 fields, found 3: more fields than the columns [machine, value]");
        assertThat(out.badRecords.get(1).reason()).isEqualTo("column 'value': 'warm' is not a double");
        assertThat(out.badRecords.get(2).reason()).contains("after the closing quote");
        assertThat(out.badRecords.get(3).reason()).contains("ends inside a quoted field");
    }

    @Test
    void csvWithGivenColumnsHasNoHeaderRow() throws Exception {
        Path file = write("r.csv", "M1,1\nM2,2\n");
        RecordingOutput<CsvRow> out = readAll(FileSource.of(CsvFormat.withColumns("machine", "value"), file));
        assertThat(out.values).extracting(r -> r.get("machine")).containsExactly("M1", "M2");
    }

    @Test
    void aDirectoryIsReadAsOneSplitPerFileInNameOrder() throws Exception {
        write("b.jsonl", "{\"machine\":\"B\",\"value\":1}\n");
        write("a.jsonl", "{\"machine\":\"A\",\"value\":1}\n");
        write("c.txt", "not json\n");
        write(".hidden.jsonl", "not json\n");
        FileSource<Reading> source = FileSource.builder(JsonLines.of(Reading.class)).path(dir).glob("*.jsonl").build();

        List<FileSplit> splits = source.createSplits(2);
        RecordingOutput<Reading> out = readAll(source);

        assertThat(splits).extracting(FileSplit::path)
                .containsExactly(dir.resolve("a.jsonl").toString(), dir.resolve("b.jsonl").toString());
        assertThat(out.values).extracting(Reading::machine).containsExactly("A", "B");
        assertThat(out.splitIds).containsExactly(splits.get(0).splitId(), splits.get(1).splitId());
        assertThat(out.released).containsExactly(splits.get(0).splitId(), splits.get(1).splitId());
        assertThat(source.maxParallelism()).isEqualTo(-1);
    }

    @Test
    void whenAFileIsMissing_thenTheErrorNamesThePath() throws Exception {
        Path missing = dir.resolve("missing.jsonl");
        FileSource<JsonNode> source = FileSource.of(JsonLines.nodes(), missing);
        assertThatThrownBy(() -> source.createSplits(1)).isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining(missing.toString());

        SourceReader<JsonNode, FileSplit> reader = source.createReader(context);
        reader.addSplits(List.of(FileSplit.start(missing.toString())));
        assertThatThrownBy(() -> reader.pollNext(new RecordingOutput<>())).isInstanceOf(IOException.class)
                .hasMessageContaining(missing.toString()).hasMessageContaining("test-source");
    }

    @Test
    void whenTheCsvHeaderHasDuplicateColumns_thenReadingFailsNamingTheFile() throws Exception {
        Path file = write("dup.csv", "a,b,a\n1,2,3\n");
        FileSource<CsvRow> source = FileSource.of(CsvFormat.withHeader(), file);
        SourceReader<CsvRow, FileSplit> reader = source.createReader(context);
        reader.addSplits(source.createSplits(1));
        assertThatThrownBy(() -> reader.pollNext(new RecordingOutput<>()))
                .hasMessageContaining(file.toString()).hasMessageContaining("duplicate CSV column 'a'");
    }

    @Test
    void whenRestoredFromSnapshotsAtRandomPoints_thenOutputEqualsAnUninterruptedRead() throws Exception {
        Random random = new Random(11);
        StringBuilder csv = new StringBuilder("machine,note,value\n");
        for (int i = 0; i < 3_000; i++) {
            if (i % 97 == 0) {
                csv.append("broken\n");
            } else if (i % 13 == 0) {
                csv.append("M").append(i).append(",\"multi\nline, é\",").append(i).append('\n');
            } else {
                csv.append("M").append(i).append(",ü,").append(i).append("\r\n");
            }
        }
        write("a.csv", csv.toString());
        write("b.csv", "\uFEFFmachine,note,value\nB1,x,1\nB2,y,2");
        FileSource<CsvRow> source = FileSource.builder(CsvFormat.withHeader()).path(dir).build();
        RecordingOutput<CsvRow> expected = readAll(source);
        assertThat(expected.values).hasSize(3_000 - 31 + 2);
        assertThat(expected.badRecords).hasSize(31);

        for (int round = 0; round < 10; round++) {
            List<FileSplit> state = source.createSplits(1);
            List<CsvRow> values = new ArrayList<>();
            List<BadRecord> bad = new ArrayList<>();
            List<String> splitIds = new ArrayList<>();
            boolean ended = false;
            while (!ended) {
                SourceReader<CsvRow, FileSplit> reader = source.createReader(context);
                reader.addSplits(state);
                reader.noMoreSplits();
                RecordingOutput<CsvRow> out = new RecordingOutput<>();
                int polls = 1 + random.nextInt(4);
                for (int i = 0; i < polls && !ended; i++) {
                    ended = reader.pollNext(out) == InputStatus.END_OF_INPUT;
                }
                state = reader.snapshotState();
                reader.close();
                values.addAll(out.values);
                bad.addAll(out.badRecords);
                splitIds.addAll(out.splitIds);
            }
            assertThat(values).containsExactlyElementsOf(expected.values);
            assertThat(bad).containsExactlyElementsOf(expected.badRecords);
            assertThat(splitIds).containsExactlyElementsOf(expected.splitIds);
        }
    }

    @Test
    void aPollEmitsAtMostOneBatch() throws Exception {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < FileSource.BATCH * 2 + 5; i++) {
            lines.append("{\"machine\":\"M\",\"value\":").append(i).append("}\n");
        }
        Path file = write("r.jsonl", lines.toString());
        FileSource<Reading> source = FileSource.of(JsonLines.of(Reading.class), file);
        SourceReader<Reading, FileSplit> reader = source.createReader(context);
        reader.addSplits(source.createSplits(1));
        reader.noMoreSplits();
        RecordingOutput<Reading> out = new RecordingOutput<>();

        assertThat(reader.pollNext(out)).isEqualTo(InputStatus.MORE_AVAILABLE);
        assertThat(out.values).hasSize(FileSource.BATCH);
        assertThat(reader.snapshotState()).containsExactly(new FileSplit(file.toString(),
                Files.readString(file).lines().limit(FileSource.BATCH).mapToLong(l -> l.length() + 1).sum(),
                FileSource.BATCH));
    }
}
