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
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The three bad-record policies through the real runtime: fail, skip and count, dead letters. */
class BadInputPoliciesIT {
    record Reading(String machine, double value) {}

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
