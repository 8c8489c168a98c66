package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.sink.CommittingSinkWriter;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.source.BadRecord;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.time.Clock;
import io.millrace.api.time.ManualClock;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.CsvEncoder;
import io.millrace.connector.file.CsvFormat;
import io.millrace.connector.file.FileSink;
import io.millrace.connector.file.FileSource;
import io.millrace.connector.file.JsonLines;
import io.millrace.connector.file.LineFormat;
import io.millrace.connector.file.PendingPart;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The examples of docs/sources-and-sinks.md; each runs here. */
class SourcesAndSinksExamplesTest {
    @TempDir
    Path dir;

    // tag::reading[]
    record Reading(String machine, double value, long time) {}
    // end::reading[]

    @Test
    void generator() {
        // tag::generator[]
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        CollectSink<Reading> sink = new CollectSink<>();

        GeneratorSource<Reading> readings = GeneratorSource.builder(i -> new Reading("M" + (i % 4), i % 100, 1_000 * i))
                .count(2_000)
                .ratePerSecond(20_000)
                .timestamps(i -> 1_000 * i)
                .build();
        pipeline.fromSource(readings, WatermarkStrategy.monotonous(), "readings").sinkTo(sink);

        pipeline.execute("generated readings");
        // end::generator[]
        assertThat(sink.results()).hasSize(2_000).doesNotHaveDuplicates();
        assertThat(sink.timestamps()).allMatch(t -> t % 1_000 == 0);
    }

    @Test
    void jsonLinesWithDeadLetters() throws Exception {
        Path input = Files.createDirectories(dir.resolve("in"));
        Files.writeString(input.resolve("2026-01-01.jsonl"), """
                {"machine":"M1","value":71.5,"time":1000}
                {"machine":"M2","value":"n/a","time":2000}
                {"machine":"M1","value":72.0,"time":3000}
                """);
        Files.writeString(input.resolve("2026-01-02.jsonl"), """
                {"machine":"M2","value":69.0,"time":90000}
                """);
        // tag::json-lines[]
        Pipeline pipeline = Pipeline.create();
        CollectSink<Reading> readings = new CollectSink<>();
        CollectSink<BadRecord> rejected = new CollectSink<>();

        FileSource<Reading> files = FileSource.builder(JsonLines.of(Reading.class)).path(input).glob("*.jsonl").build();
        DataStream<Reading> stream = pipeline.fromSource(files,
                WatermarkStrategy.<Reading>boundedOutOfOrderness(Duration.ofSeconds(5))
                        .withTimestampAssigner((reading, sourceTimestamp) -> reading.time()),
                BadRecordPolicy.DEAD_LETTER, "readings");
        stream.sinkTo(readings);
        stream.getSideOutput(BadRecord.DEAD_LETTERS).sinkTo(rejected);

        pipeline.execute("read readings");
        // rejected: "<dir>/2026-01-01.jsonl:2: field 'value': Cannot deserialize value of type `double` from String "n/a" ..."
        // end::json-lines[]
        assertThat(readings.results()).extracting(Reading::time).containsExactlyInAnyOrder(1_000L, 3_000L, 90_000L);
        assertThat(rejected.results()).singleElement().satisfies(b -> {
            assertThat(b.location()).isEqualTo(input.resolve("2026-01-01.jsonl") + ":2");
            assertThat(b.reason()).startsWith("field 'value': Cannot deserialize value of type `double` from String \"n/a\"");
        });
    }

    @Test
    void csv() throws Exception {
        Path file = Files.writeString(dir.resolve("readings.csv"), "machine;value;time;note\n"
                + "M1;71.5;1000;\"routine; all fine\"\n"
                + "M2;80.25;2000;\"operator said \"\"check\nthe bearing\"\"\"\n"
                + "M3;warm;3000;\n");
        // tag::csv[]
        LineFormat<Reading> csv = CsvFormat.withHeader()
                .delimiter(';')
                .map(row -> new Reading(row.get("machine"), row.getDouble("value"), row.getLong("time")));

        Pipeline pipeline = Pipeline.create();
        CollectSink<Reading> readings = new CollectSink<>();
        pipeline.fromSource(FileSource.of(csv, file),
                        WatermarkStrategy.<Reading>monotonous().withTimestampAssigner((r, ts) -> r.time()),
                        BadRecordPolicy.SKIP, "csv readings")
                .sinkTo(readings);
        pipeline.execute("read csv");
        // end::csv[]
        assertThat(readings.results()).containsExactly(new Reading("M1", 71.5, 1_000), new Reading("M2", 80.25, 2_000));
    }

    // tag::optional-fields[]
    /** {@code time} is required (a primitive); {@code value} is optional (boxed): null when missing. */
    record Sample(String machine, long time, Double value) {}
    // end::optional-fields[]

    @Test
    void optionalFields() throws Exception {
        Path json = Files.writeString(dir.resolve("samples.jsonl"), """
                {"machine":"M1","time":1000,"value":71.5}
                {"machine":"M2","time":2000}
                {"machine":"M3","value":12.0}
                """);
        Path csv = Files.writeString(dir.resolve("samples.csv"), "machine,time,value\nM1,1000,71.5\nM2,2000,\nM3,,12.0\n");
        // tag::optional-columns[]
        LineFormat<Sample> samples = CsvFormat.withHeader()
                .map(row -> new Sample(row.get("machine"), row.getLong("time"), row.getDoubleOrNull("value")));
        // end::optional-columns[]
        for (FileSource<Sample> source : List.of(FileSource.of(JsonLines.of(Sample.class), json), FileSource.of(samples, csv))) {
            Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
            CollectSink<Sample> read = new CollectSink<>();
            CollectSink<BadRecord> rejected = new CollectSink<>();
            DataStream<Sample> stream = pipeline.fromSource(source, WatermarkStrategy.noWatermarks(), BadRecordPolicy.DEAD_LETTER, "samples");
            stream.sinkTo(read);
            stream.getSideOutput(BadRecord.DEAD_LETTERS).sinkTo(rejected);
            pipeline.execute("optional fields");
            assertThat(read.results()).containsExactly(new Sample("M1", 1000, 71.5), new Sample("M2", 2000, null));
            assertThat(rejected.results()).singleElement().satisfies(b -> assertThat(b.reason()).containsAnyOf(
                    "field 'time' (long) is missing; declare it as Long to make it optional",
                    "column 'time' is empty, expected a long (read it with getLongOrNull to make it optional)"));
        }
    }

    @Test
    void pacedReplay() throws Exception {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 600; i++) {
            lines.append("{\"machine\":\"M").append(i % 3).append("\",\"value\":").append(i).append(",\"time\":").append(i * 1_000L).append("}\n");
        }
        Path recorded = Files.writeString(dir.resolve("recorded.jsonl"), lines.toString());
        // tag::paced-replay[]
        FileSource<Reading> replay = FileSource.builder(JsonLines.of(Reading.class))
                .path(recorded)
                .ratePerSecond(6_000)                        // 6,000 readings per second over all readers
                .build();

        Pipeline pipeline = Pipeline.create();
        CollectSink<Reading> readings = new CollectSink<>();
        pipeline.fromSource(replay,
                        WatermarkStrategy.<Reading>boundedOutOfOrderness(Duration.ofSeconds(5))
                                .withTimestampAssigner((r, ts) -> r.time()),
                        "replay")
                .sinkTo(readings);
        pipeline.execute("paced replay");                    // about 0.1 s for 600 lines
        // end::paced-replay[]
        assertThat(readings.results()).hasSize(600);
        assertThat(readings.results()).extracting(Reading::value).doesNotHaveDuplicates();
    }

    @Test
    void fileSinks() throws Exception {
        Path out = dir.resolve("out");
        // tag::file-sinks[]
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
        DataStream<Reading> readings = pipeline.fromElements(
                new Reading("M1", 71.5, 1_000),
                new Reading("M2", 96.0, 2_000));

        readings.sinkTo(FileSink.jsonLines(out.resolve("json")));
        readings.sinkTo(FileSink.csv(out.resolve("csv"), CsvEncoder.ofRecord(Reading.class)));
        readings.sinkTo(FileSink.csv(out.resolve("hot"),
                CsvEncoder.<Reading>of(List.of("machine", "celsius"), r -> List.of(r.machine(), r.value()))));

        pipeline.execute("write files");
        // out/json/part-0.jsonl: {"machine":"M1","value":71.5,"time":1000} ...
        // out/csv/part-0.csv:    machine,value,time / M1,71.5,1000 / M2,96.0,2000
        // end::file-sinks[]
        assertThat(Files.readAllLines(out.resolve("json/part-0.jsonl")))
                .containsExactly("{\"machine\":\"M1\",\"value\":71.5,\"time\":1000}", "{\"machine\":\"M2\",\"value\":96.0,\"time\":2000}");
        assertThat(Files.readAllLines(out.resolve("csv/part-0.csv")))
                .containsExactly("machine,value,time", "M1,71.5,1000", "M2,96.0,2000");
        assertThat(Files.readAllLines(out.resolve("hot/part-0.csv"))).containsExactly("machine,celsius", "M1,71.5", "M2,96.0");
    }

    record Subtask(int subtaskIndex, int parallelism, Clock clock, String sinkName) implements SinkContext {}

    @Test
    void exactlyOnceFileSink() throws Exception {
        Path out = dir;
        // tag::transactional-file-sink[]
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(2));
        DataStream<Reading> readings = pipeline.fromElements(
                new Reading("M1", 71.5, 1_000),
                new Reading("M2", 96.0, 2_000));

        readings.sinkTo(TransactionalFileSink.jsonLines(out.resolve("json")));
        TransactionalFileSink<Reading> csv = TransactionalFileSink.csv(out.resolve("telemetry"), CsvEncoder.ofRecord(Reading.class))
                .partPrefix("readings")
                .rollAtBytes(128L << 20);
        readings.sinkTo(csv);
        // out/telemetry/readings-0-1-0.csv once checkpoint 1 is complete, readings-0-2-0.csv after checkpoint 2, ...
        // end::transactional-file-sink[]

        // What the runtime does with one subtask of the CSV sink: nothing is visible before the commit.
        Subtask subtask = new Subtask(0, 2, new ManualClock(0), "readings");
        csv.abortLingering(subtask, -1);
        CommittingSinkWriter<Reading, PendingPart> writer = csv.createWriter(subtask);
        writer.write(new Reading("M1", 71.5, 1_000), 1_000);
        List<PendingPart> checkpoint1 = writer.prepareCommit(1);
        assertThat(out.resolve("telemetry")).isDirectoryNotContaining("glob:**.csv");
        csv.createCommitter(subtask).commit(checkpoint1);
        assertThat(Files.readAllLines(out.resolve("telemetry/readings-0-1-0.csv")))
                .containsExactly("machine,value,time", "M1,71.5,1000");
    }
}
