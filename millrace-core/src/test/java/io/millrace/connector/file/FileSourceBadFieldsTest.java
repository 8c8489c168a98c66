package io.millrace.connector.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.source.BadRecord;
import io.millrace.api.source.SourceReader;
import io.millrace.api.time.ManualClock;
import io.millrace.connector.ReaderDriver;
import io.millrace.connector.RecordingOutput;
import io.millrace.connector.TestReaderContext;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Required and optional fields of JSON lines and CSV, reasons without the parser's position, raw bytes of bad lines. */
class FileSourceBadFieldsTest {
    @TempDir
    Path dir;

    record Reading(String machine, long ts, double value) {}

    record OptionalReading(String machine, long ts, Double value) {}

    record Place(String hall, int bay) {}

    record PlacedReading(String machine, Place place) {}

    /** A bean with a setter: Jackson never calls it when the field is missing. */
    public static final class BeanReading {
        private String machine;
        private double value = -1;

        public void setMachine(String machine) {
            this.machine = machine;
        }

        public void setValue(double value) {
            this.value = value;
        }

        public String getMachine() {
            return machine;
        }

        public double getValue() {
            return value;
        }
    }

    private <T> RecordingOutput<T> readAll(FileSource<T> source) throws Exception {
        SourceReader<T, FileSplit> reader = source.createReader(TestReaderContext.single(new ManualClock(0)));
        reader.addSplits(source.createSplits(1));
        reader.noMoreSplits();
        RecordingOutput<T> out = new RecordingOutput<>();
        ReaderDriver.drain(reader, out, 1_000);
        reader.close();
        return out;
    }

    private Path write(String name, String content) throws Exception {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }

    private static final String JSON = String.join("\n",
            "{\"machine\":\"m01\",\"sensor\":\"vibration\",\"ts\":1,\"value\":0.5}",
            "{\"machine\":\"m03\",\"sensor\":\"vibration\",\"ts\":2}",
            "{\"machine\":\"m04\",\"sensor\":\"vibration\",\"ts\":3,\"value\":null}",
            "{\"machine\":\"m05\",\"value\":1.5}",
            "{\"machine\":\"m06\",\"ts\":6,\"value\":6}");

    @Test
    void jsonLineWithoutAPrimitiveField_isABadRecordNamingTheField() throws Exception {
        Path file = write("r.jsonl", JSON);

        RecordingOutput<Reading> out = readAll(FileSource.of(JsonLines.of(Reading.class), file));

        assertThat(out.values).containsExactly(new Reading("m01", 1, 0.5), new Reading("m06", 6, 6));
        assertThat(out.badRecords).extracting(BadRecord::location).containsExactly(file + ":2", file + ":3", file + ":4");
        assertThat(out.badRecords).extracting(BadRecord::reason).containsExactly(
                "field 'value' (double) is missing; declare it as Double to make it optional",
                "field 'value' (double) is null; declare it as Double to make it optional",
                "field 'ts' (long) is missing; declare it as Long to make it optional");
    }

    @Test
    void jsonFieldOfABoxedType_isOptionalAndReadAsNull() throws Exception {
        Path file = write("r.jsonl", JSON);

        RecordingOutput<OptionalReading> out = readAll(FileSource.of(JsonLines.of(OptionalReading.class), file));

        assertThat(out.values).containsExactly(new OptionalReading("m01", 1, 0.5), new OptionalReading("m03", 2, null),
                new OptionalReading("m04", 3, null), new OptionalReading("m06", 6, 6.0));
        assertThat(out.badRecords).extracting(BadRecord::reason).containsExactly(
                "field 'ts' (long) is missing; declare it as Long to make it optional");
    }

    @Test
    void requiredFieldsAreCheckedInNestedObjectsAndInBeansWithSetters() throws Exception {
        Path nested = write("n.jsonl", "{\"machine\":\"m1\",\"place\":{\"hall\":\"A\",\"bay\":3}}\n"
                + "{\"machine\":\"m2\",\"place\":{\"hall\":\"A\"}}\n"
                + "{\"machine\":\"m3\"}\n");
        RecordingOutput<PlacedReading> placed = readAll(FileSource.of(JsonLines.of(PlacedReading.class), nested));
        assertThat(placed.values).containsExactly(new PlacedReading("m1", new Place("A", 3)), new PlacedReading("m3", null));
        assertThat(placed.badRecords).extracting(BadRecord::reason)
                .containsExactly("field 'place.bay' (int) is missing; declare it as Integer to make it optional");

        Path beans = write("b.jsonl", "{\"machine\":\"m1\",\"value\":2}\n{\"machine\":\"m2\"}\n");
        RecordingOutput<BeanReading> read = readAll(FileSource.of(JsonLines.of(BeanReading.class), beans));
        assertThat(read.values).extracting(BeanReading::getValue).containsExactly(2.0);
        assertThat(read.badRecords).extracting(BadRecord::location).containsExactly(beans + ":2");
        assertThat(read.badRecords.get(0).reason()).startsWith("field 'value' (double) is missing");
    }

    @Test
    void jsonReasons_carryNoParserPositionOrConfigurationHint_andNameTheField() throws Exception {
        Path file = write("r.jsonl", String.join("\n",
                "{\"machine\":",
                "{\"machine\":\"m1\",\"ts\":\"soon\",\"value\":1}",
                "[1,2]",
                "{\"machine\":\"m1\",\"ts\":1,\"value\":1} trailing",
                "{\"machine\":\"m1\",\"ts\":1,\"value\":{\"a\":1}}",
                "not json"));

        RecordingOutput<Reading> out = readAll(FileSource.of(JsonLines.of(Reading.class), file));

        assertThat(out.values).isEmpty();
        assertThat(out.badRecords).hasSize(6).allSatisfy(b -> assertThat(b.reason())
                .isNotBlank()
                .doesNotContain("Source:")
                .doesNotContain("line: ")
                .doesNotContain("column: ")
                .doesNotContain("DeserializationFeature"));
        assertThat(out.badRecords.get(1).reason()).startsWith("field 'ts': ").contains("soon");
        assertThat(out.badRecords.get(4).reason()).startsWith("field 'value': ");
    }

    @Test
    void csvEmptyOrMissingRequiredColumn_isABadRecordNamingTheColumn_andOrNullGettersReadOptionalOnes() throws Exception {
        Path file = write("r.csv", "machine,ts,value\nm1,1,0.5\nm3,2,\nm4,3\nm5,,1.5\nm6,6,hot\n");

        RecordingOutput<Reading> strict = readAll(FileSource.of(CsvFormat.withHeader()
                .map(r -> new Reading(r.get("machine"), r.getLong("ts"), r.getDouble("value"))), file));
        RecordingOutput<OptionalReading> optional = readAll(FileSource.of(CsvFormat.withHeader()
                .map(r -> new OptionalReading(r.get("machine"), r.getLong("ts"), r.getDoubleOrNull("value"))), file));

        assertThat(strict.values).containsExactly(new Reading("m1", 1, 0.5));
        assertThat(strict.badRecords).extracting(BadRecord::location)
                .containsExactly(file + ":3", file + ":4", file + ":5", file + ":6");
        assertThat(strict.badRecords).extracting(BadRecord::reason).containsExactly(
                "column 'value' is empty, expected a double (read it with getDoubleOrNull to make it optional)",
                "expected 3 fields, found 2: column 'value' is missing",
                "column 'ts' is empty, expected a long (read it with getLongOrNull to make it optional)",
                "column 'value': 'hot' is not a double");
        assertThat(optional.values).containsExactly(new OptionalReading("m1", 1, 0.5), new OptionalReading("m3", 2, null));
        assertThat(optional.badRecords).extracting(BadRecord::location).containsExactly(file + ":4", file + ":5", file + ":6");
    }

    @Test
    void badLineThatIsNotUtf8_isABadRecordWhoseRawBytesAreExactlyTheLine() throws Exception {
        byte[] bad = {'{', '"', 'm', 'a', 'c', 'h', 'i', 'n', 'e', '"', ':', '"', 'm', (byte) 0xFF, (byte) 0xC3, '"', '}'};
        byte[] replacementLike = "{\"machine\":\"m\uFFFD\",\"ts\":1,\"value\":2}".getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        content.write(bad);
        content.write('\n');
        content.write(replacementLike);
        content.write('\n');
        Path file = Files.write(dir.resolve("r.jsonl"), content.toByteArray());

        RecordingOutput<Reading> out = readAll(FileSource.of(JsonLines.of(Reading.class), file));

        assertThat(out.values).as("a real U+FFFD in the file is valid UTF-8").containsExactly(new Reading("m\uFFFD", 1, 2));
        assertThat(out.badRecords).hasSize(1);
        assertThat(out.badRecords.get(0).raw()).isEqualTo(bad);
        assertThat(out.badRecords.get(0).location()).isEqualTo(file + ":1");
        assertThat(out.badRecords.get(0).reason()).isEqualTo("not valid UTF-8 (byte 14 of the record)");
    }

    @Test
    void rawBytesOfBadLines_leaveOutTheLineTerminator_andKeepLineBreaksInsideAMultiLineRecord() throws Exception {
        Path file = write("r.csv", "machine,note,value\r\n"
                + "m1,plain,hot\r\n"
                + "m2,\"two\r\nlines\",warm\r\n"
                + "m3,ok,3\r\n"
                + "m4,\"open\r\nto the end\r\n");
        RecordingOutput<Reading> out = readAll(FileSource.of(CsvFormat.withHeader()
                .map(r -> new Reading(r.get("machine"), 0, r.getDouble("value"))), file));

        assertThat(out.values).containsExactly(new Reading("m3", 0, 3));
        assertThat(out.badRecords).extracting(BadRecord::location).containsExactly(file + ":2", file + ":3", file + ":6");
        assertThat(out.badRecords.get(0).raw()).isEqualTo("m1,plain,hot".getBytes(StandardCharsets.UTF_8));
        assertThat(out.badRecords.get(1).raw()).isEqualTo("m2,\"two\r\nlines\",warm".getBytes(StandardCharsets.UTF_8));
        assertThat(out.badRecords.get(1).reason()).isEqualTo("column 'value': 'warm' is not a double");
        assertThat(out.badRecords.get(2).raw()).isEqualTo("m4,\"open\r\nto the end".getBytes(StandardCharsets.UTF_8));
        assertThat(out.badRecords.get(2).reason()).isEqualTo("the file ends inside a quoted field");
    }

    @Test
    void badRecordCopiesItsBytes_andComparesThemByContent() {
        byte[] bytes = {1, 2, (byte) 0xFF};
        BadRecord bad = new BadRecord(bytes, "f:1", "why");
        bytes[0] = 9;
        bad.raw()[1] = 9;
        assertThat(bad.raw()).containsExactly(1, 2, (byte) 0xFF);
        assertThat(bad).isEqualTo(new BadRecord(new byte[] {1, 2, (byte) 0xFF}, "f:1", "why"))
                .isNotEqualTo(new BadRecord(new byte[] {1, 2}, "f:1", "why"));
        assertThat(new BadRecord("é", "f:1", "why").raw()).isEqualTo("é".getBytes(StandardCharsets.UTF_8));
    }
}
