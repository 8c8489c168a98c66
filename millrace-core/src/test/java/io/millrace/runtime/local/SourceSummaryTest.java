package io.millrace.runtime.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.source.BadRecord;
import io.millrace.api.source.BadRecordPolicy;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.CsvFormat;
import io.millrace.connector.file.FileSource;
import io.millrace.connector.generator.GeneratorSource;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceSummaryTest {
    @TempDir
    Path dir;

    @Test
    void eachSource_reportsItsRecordsAndWhatBecameOfItsBadRecords() throws Exception {
        Path file = Files.writeString(dir.resolve("n.csv"), "n\n1\nx\n3\ny\n");
        Pipeline p = Pipeline.create(new PipelineConfig().parallelism(2));
        FileSource<Long> numbers = FileSource.of(CsvFormat.withHeader().map(r -> r.getLong("n")), file);
        p.fromSource(numbers, WatermarkStrategy.noWatermarks(), BadRecordPolicy.SKIP, "skipping").sinkTo(new CollectSink<>());
        DataStream<Long> dead = p.fromSource(numbers, WatermarkStrategy.noWatermarks(), BadRecordPolicy.DEAD_LETTER, "dead-lettering");
        dead.sinkTo(new CollectSink<>());
        dead.getSideOutput(BadRecord.DEAD_LETTERS).sinkTo(new CollectSink<>());
        p.fromSource(GeneratorSource.of(i -> i, 1), WatermarkStrategy.noWatermarks(), "one").sinkTo(new CollectSink<>());

        JobResult result = p.execute("summary");

        assertThat(SourceSummary.lines(p.plan(), result.metrics())).containsExactly(
                "source 'skipping': 2 records, 2 bad records skipped",
                "source 'dead-lettering': 2 records, 2 bad records dead-lettered",
                "source 'one': 1 record, no bad records");
    }
}
