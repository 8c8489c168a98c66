package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.RestartStrategy;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The examples of docs/fault-tolerance.md. */
class FaultToleranceExamplesTest {
    record Tick(long index, long machine) {}

    @TempDir
    Path work;

    @Test
    void checkpointedJobWithExactlyOnceFiles() throws Exception {
        Path dir = work.resolve("job");
        Path out = work.resolve("out");
        // tag::config[]
        PipelineConfig config = new PipelineConfig()
                .restartStrategy(RestartStrategy.exponentialBackoff(10, Duration.ofSeconds(1), Duration.ofMinutes(1), 2.0));
        config.checkpoints()
                .directory(dir)                         // a restarted process resumes from here by itself
                .interval(Duration.ofSeconds(1))
                .timeout(Duration.ofMinutes(2))
                .retained(3);

        Pipeline pipeline = Pipeline.create(config);
        pipeline.fromSource(GeneratorSource.builder(i -> new Tick(i, i % 8)).count(50_000).build(),
                        WatermarkStrategy.noWatermarks(), "ticks").uid("ticks")
                .filter(t -> t.machine() == 3).uid("machine-3")
                .sinkTo(TransactionalFileSink.jsonLines(out)).uid("machine-3-files");
        JobResult result = pipeline.execute("exactly-once files");
        // end::config[]
        long lines;
        try (Stream<Path> files = Files.list(out)) {
            lines = files.filter(f -> !f.getFileName().toString().startsWith("."))
                    .mapToLong(f -> {
                        try {
                            return Files.readAllLines(f).size();
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    }).sum();
        }
        assertThat(lines).isEqualTo(50_000 / 8);
        assertThat(result.metrics().lastCompletedCheckpoint()).isGreaterThanOrEqualTo(1);
        assertThat(Files.exists(dir.resolve("checkpoints"))).isTrue();
    }
}
