package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.row.FieldType;
import io.millrace.api.row.Row;
import io.millrace.api.row.RowType;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.source.BadRecord;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.CsvFormat;
import io.millrace.connector.file.FileSource;
import io.millrace.format.BytesDecoder;
import io.millrace.format.CsvRowFormat;
import io.millrace.format.FormatException;
import io.millrace.format.JsonRowFormat;
import io.millrace.format.RawRowFormat;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The examples of docs/formats.md; each runs here. */
class FormatsExamplesTest {
    @TempDir
    Path dir;

    // tag::type[]
    static final RowType READING = RowType.builder()
            .field("machine", FieldType.STRING)
            .field("at", FieldType.TIMESTAMP)
            .nullableField("celsius", FieldType.DOUBLE)
            .build();
    // end::type[]

    @Test
    void json() {
        // tag::json[]
        JsonRowFormat json = JsonRowFormat.of(READING);
        Row row = json.decode("{\"machine\":\"m03\",\"at\":\"2026-12-03T10:15:30Z\",\"celsius\":71.5}".getBytes(StandardCharsets.UTF_8));
        byte[] bytes = json.encode(row);   // {"machine":"m03","at":1796292930000,"celsius":71.5}
        // end::json[]
        assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo("{\"machine\":\"m03\",\"at\":1796292930000,\"celsius\":71.5}");
    }

    @Test
    void csv() {
        // tag::csv[]
        CsvRowFormat csv = CsvRowFormat.of(READING)
                .delimiter(';')             // default ','
                .quote('"')                 // the default
                .nullLiteral("NULL");       // default: the empty field is null
        Row row = csv.decode("\"press; 1\";1796292930000;NULL".getBytes(StandardCharsets.UTF_8));
        String text = csv.encodeToString(row);   // "press; 1";1796292930000;NULL
        // end::csv[]
        assertThat(row).isEqualTo(Row.of(READING, "press; 1", 1_796_292_930_000L, null));
        assertThat(text).isEqualTo("\"press; 1\";1796292930000;NULL");
        // tag::csv-error[]
        assertThatThrownBy(() -> csv.decode("m03;1796292930000;hot".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(FormatException.class)
                .hasMessage("column 3 'celsius' (DOUBLE) at character 19: 'hot' is not a number");
        // end::csv-error[]
    }

    @Test
    void raw() throws Exception {
        // tag::raw[]
        RawRowFormat lines = RawRowFormat.utf8("line");             // one STRING NOT NULL field: the whole payload
        BytesDecoder<String> text = BytesDecoder.utf8();            // strict UTF-8, not a row
        BytesDecoder<Long> counts = BytesDecoder.decimalLongs();    // "42" -> 42L
        // end::raw[]
        assertThat(lines.decode("a,b".getBytes(StandardCharsets.UTF_8)).getString("line")).isEqualTo("a,b");
        assertThat(text.decode(new byte[] {'o', 'k'})).isEqualTo("ok");
        assertThat(counts.decode("42".getBytes(StandardCharsets.UTF_8))).isEqualTo(42L);
        assertThatThrownBy(() -> text.decode(new byte[] {'o', (byte) 0xFF})).hasMessage("not valid UTF-8: bad byte at offset 1 of 2");
    }

    @Test
    void csvFilesAsTypedRows() throws Exception {
        Path file = dir.resolve("readings.csv");
        Files.writeString(file, "machine,at,celsius\nm03,1000,71.5\nm04,1001,\nm05,1002,hot\n");
        Pipeline pipeline = Pipeline.create(new PipelineConfig().parallelism(1));
        CollectSink<Row> rows = new CollectSink<>();
        CollectSink<BadRecord> bad = new CollectSink<>();
        // tag::file-rows[]
        var readings = pipeline.fromSource(FileSource.of(CsvFormat.rows(CsvRowFormat.of(READING), true), file),
                WatermarkStrategy.noWatermarks(), BadRecordPolicy.DEAD_LETTER, "readings");   // true: a header line
        readings.sinkTo(rows);
        readings.getSideOutput(BadRecord.DEAD_LETTERS).sinkTo(bad);   // "m05,1002,hot", readings.csv:4, the reason
        // end::file-rows[]
        pipeline.execute("csv rows");
        assertThat(rows.results()).containsExactly(Row.of(READING, "m03", 1000L, 71.5), Row.of(READING, "m04", 1001L, null));
        assertThat(bad.results()).singleElement().satisfies(b -> {
            assertThat(b.rawText()).isEqualTo("m05,1002,hot");
            assertThat(b.location()).endsWith("readings.csv:4");
            assertThat(b.reason()).isEqualTo("column 3 'celsius' (DOUBLE) at character 10: 'hot' is not a number");
        });
    }
}
