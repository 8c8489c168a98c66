package io.millrace.connector.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.DataStream;
import io.millrace.api.JobExecutionException;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.source.BadRecord;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.time.WatermarkStrategy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The three bad-record policies through the real runtime: fail, skip and count, dead letters. */
class BadInputPoliciesIT {
    record Reading(String machine, double value) {}

    /** {@code value} is optional: boxed. */
    record MaybeReading(String machine, Double value) {}

    /** Line 2 of the JSON file and line 3 of the CSV file lack {@code value}. */
    private static final String JSON = "{\"machine\":\"m01\",\"value\":0.5}\n{\"machine\":\"m03\"}\n{\"machine\":\"m05\",\"value\":5}\n";
    private static final String CSV = "machine,value\nm01,0.5\nm03,\nm05,5\n";

    /** One input format: how to read the file strictly and with an optional value, and where its bad line is. */
    private record Case(String name, String content, int badLine, String reason, FileSourceFactory strict, FileSourceFactory optional) {}

    @FunctionalInterface
    private interface FileSourceFactory {
        FileSource<?> of(Path file);
    }

    private static final List<Case> CASES = List.of(
            new Case("readings.jsonl", JSON, 2, "field 'value' (double) is missing",
                    f -> FileSource.of(JsonLines.of(Reading.class), f), f -> FileSource.of(JsonLines.of(MaybeReading.class), f)),
            new Case("readings.csv", CSV, 3, "column 'value' is empty",
                    f -> FileSource.of(CsvFormat.withHeader().map(r -> new Reading(r.get("machine"), r.getDouble("value"))), f),
                    f -> FileSource.of(CsvFormat.withHeader().map(r -> new MaybeReading(r.get("machine"), r.getDoubleOrNull("value"))), f)));

    @SuppressWarnings("unchecked")
    private static <T> DataStream<T> read(Pipeline p, FileSource<?> source, BadRecordPolicy policy) {
        return p.fromSource((FileSource<T>) source, WatermarkStrategy.noWatermarks(), policy, "readings");
    }

    private static String machine(Object reading) {
        return reading instanceof Reading r ? r.machine() : ((MaybeReading) reading).machine();
    }

    @Test
    void missingRequiredField_underFail_failsTheJobNamingFileLineAndFieldOnly() throws Exception {
        for (Case c : CASES) {
            Path file = Files.writeString(dir.resolve(c.name()), c.content());
            Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
            read(p, c.strict().of(file), BadRecordPolicy.FAIL).sinkTo(new CollectSink<>());
            assertThatThrownBy(() -> p.execute("fail"))
                    .as(c.name())
                    .isInstanceOf(JobExecutionException.class)
                    .hasMessageContaining("read bad input at " + file + ":" + c.badLine() + ": " + c.reason())
                    .message().doesNotContain("Source:").doesNotContain("column: ");
        }
    }

    @Test
    void missingRequiredField_underSkip_isCountedAndTheRestIsRead() throws Exception {
        for (Case c : CASES) {
            Path file = Files.writeString(dir.resolve(c.name()), c.content());
            Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
            CollectSink<Object> good = new CollectSink<>();
            read(p, c.strict().of(file), BadRecordPolicy.SKIP).sinkTo(good);
            JobResult result = p.execute("skip");
            assertThat(good.results()).as(c.name()).extracting(BadInputPoliciesIT::machine).containsExactly("m01", "m05");
            assertThat(result.metrics().sum("readings", m -> m.badRecords())).as(c.name()).isEqualTo(1);
        }
    }

    @Test
    void missingRequiredField_underDeadLetter_carriesTheReasonAndTheLinesBytes() throws Exception {
        for (Case c : CASES) {
            Path file = Files.writeString(dir.resolve(c.name()), c.content());
            Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
            CollectSink<Object> good = new CollectSink<>();
            CollectSink<BadRecord> dead = new CollectSink<>();
            DataStream<Object> readings = read(p, c.strict().of(file), BadRecordPolicy.DEAD_LETTER);
            readings.sinkTo(good);
            readings.getSideOutput(BadRecord.DEAD_LETTERS).sinkTo(dead);
            p.execute("dead letters");
            String badLine = c.content().split("\n")[c.badLine() - 1];
            assertThat(good.results()).as(c.name()).hasSize(2);
            assertThat(dead.results()).as(c.name()).singleElement().satisfies(b -> {
                assertThat(b.location()).isEqualTo(file + ":" + c.badLine());
                assertThat(b.reason()).startsWith(c.reason());
                assertThat(b.raw()).isEqualTo(badLine.getBytes(StandardCharsets.UTF_8));
            });
        }
    }

    @Test
    void optionalField_isReadAsNullUnderEveryPolicy() throws Exception {
        for (Case c : CASES) {
            Path file = Files.writeString(dir.resolve(c.name()), c.content());
            for (BadRecordPolicy policy : BadRecordPolicy.values()) {
                Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
                CollectSink<MaybeReading> good = new CollectSink<>();
                CollectSink<BadRecord> dead = new CollectSink<>();
                DataStream<MaybeReading> readings = read(p, c.optional().of(file), policy);
                readings.sinkTo(good);
                if (policy == BadRecordPolicy.DEAD_LETTER) {
                    readings.getSideOutput(BadRecord.DEAD_LETTERS).sinkTo(dead);
                }
                JobResult result = p.execute("optional");
                assertThat(good.results()).as(c.name() + " " + policy)
                        .containsExactly(new MaybeReading("m01", 0.5), new MaybeReading("m03", null), new MaybeReading("m05", 5.0));
                assertThat(result.metrics().sum("readings", m -> m.badRecords())).isZero();
                assertThat(dead.results()).isEmpty();
            }
        }
    }

    @Test
    void deadLetterOfALineThatIsNotUtf8_keepsItsBytesThroughTheRuntime() throws Exception {
        byte[] bad = {'m', '0', '2', ',', (byte) 0xE9, 't', 'e'};
        java.io.ByteArrayOutputStream content = new java.io.ByteArrayOutputStream();
        content.writeBytes("machine,value\r\nm01,1\r\n".getBytes(StandardCharsets.UTF_8));
        content.writeBytes(bad);
        content.writeBytes("\r\nm03,3\r\n".getBytes(StandardCharsets.UTF_8));
        Path file = Files.write(dir.resolve("latin1.csv"), content.toByteArray());
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
        CollectSink<Reading> good = new CollectSink<>();
        CollectSink<BadRecord> dead = new CollectSink<>();
        DataStream<Reading> readings = p.fromSource(source(file), WatermarkStrategy.noWatermarks(), BadRecordPolicy.DEAD_LETTER, "csv");
        readings.sinkTo(good);
        readings.getSideOutput(BadRecord.DEAD_LETTERS).sinkTo(dead);
        p.execute("latin-1 line");
        assertThat(good.results()).extracting(Reading::machine).containsExactly("m01", "m03");
        assertThat(dead.results()).singleElement().satisfies(b -> {
            assertThat(b.raw()).isEqualTo(bad);
            assertThat(b.location()).isEqualTo(file + ":3");
            assertThat(b.reason()).isEqualTo("not valid UTF-8 (byte 5 of the record)");
        });
    }

    @TempDir
    Path dir;

    private Path input() throws Exception {
        return Files.writeString(dir.resolve("readings.csv"), "machine,value\nM1,1.5\nM2,hot\nM3,3.5\nM4\n");
    }

    private static FileSource<Reading> source(Path file) {
        return FileSource.of(CsvFormat.withHeader().map(r -> new Reading(r.get("machine"), r.getDouble("value"))), file);
    }

    @Test
    void failPolicy_failsTheJob_namingFileLineAndReason() throws Exception {
        Path file = input();
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
        p.fromSource(source(file), WatermarkStrategy.noWatermarks(), BadRecordPolicy.FAIL, "csv").sinkTo(new CollectSink<>());
        assertThatThrownBy(() -> p.execute("fail"))
                .isInstanceOf(JobExecutionException.class)
                .hasMessageContaining(file + ":3")
                .hasMessageContaining("hot");
    }

    @Test
    void skipPolicy_keepsGoing_andCountsEveryBadLine() throws Exception {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
        CollectSink<Reading> good = new CollectSink<>();
        p.fromSource(source(input()), WatermarkStrategy.noWatermarks(), BadRecordPolicy.SKIP, "csv").sinkTo(good);
        JobResult result = p.execute("skip");
        assertThat(good.results()).extracting(Reading::machine).containsExactly("M1", "M3");
        assertThat(result.metrics().sum("csv", m -> m.badRecords())).isEqualTo(2);
    }

    @Test
    void deadLetterPolicy_sendsRawTextLocationAndReason() throws Exception {
        Path file = input();
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
        CollectSink<Reading> good = new CollectSink<>();
        CollectSink<BadRecord> dead = new CollectSink<>();
        DataStream<Reading> readings = p.fromSource(source(file), WatermarkStrategy.noWatermarks(), BadRecordPolicy.DEAD_LETTER, "csv");
        readings.sinkTo(good);
        readings.getSideOutput(BadRecord.DEAD_LETTERS).sinkTo(dead);
        p.execute("dead letters");
        assertThat(good.results()).hasSize(2);
        assertThat(dead.results()).extracting(BadRecord::location).containsExactly(file + ":3", file + ":5");
        assertThat(dead.results()).extracting(BadRecord::rawText).containsExactly("M2,hot", "M4");
        assertThat(dead.results()).allSatisfy(b -> assertThat(b.reason()).isNotBlank());
    }

    @Test
    void deadLetterPolicy_withoutAReader_isRefusedBeforeStart() throws Exception {
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(1));
        p.fromSource(source(input()), WatermarkStrategy.noWatermarks(), BadRecordPolicy.DEAD_LETTER, "csv").sinkTo(new CollectSink<>());
        assertThatThrownBy(() -> p.execute("unread dead letters"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("source 'csv'")
                .hasMessageContaining("BadRecord.DEAD_LETTERS");
    }
}
