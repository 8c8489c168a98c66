package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.metrics.JobMetrics;
import io.millrace.api.metrics.TaskMetrics;
import io.millrace.api.sink.CollectSink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.generator.GeneratorSource;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The examples of docs/runtime.md. */
class RuntimeExamplesTest {

    @Test
    void configureRunAndWatch() throws Exception {
        CollectSink<Long> sink = new CollectSink<>();
        // tag::config[]
        PipelineConfig config = new PipelineConfig()
                .parallelism(2)                      // subtasks per operator
                .maxParallelism(128)                 // key groups: the upper bound for rescaling keyed state
                .batchSize(512)                      // records per batch crossing a thread
                .channelCapacity(32)                 // the most batches queued per channel before the producer waits
                .channelInFlightTarget(Duration.ofMillis(100)) // each channel holds about this much of its consumer's reading
                .bufferTimeout(Duration.ofMillis(10)); // longest a partial batch waits
        Pipeline pipeline = Pipeline.create(config);
        // end::config[]
        // tag::watch[]
        pipeline.fromSource(GeneratorSource.of(i -> i, 1_000_000), WatermarkStrategy.noWatermarks(), "numbers")
                .keyBy(n -> n % 100)
                .map(n -> n * 2).name("double")
                .sinkTo(sink).name("collect");

        JobHandle job = pipeline.executeAsync("watched");
        JobMetrics now = job.metrics();                 // any time, from any thread
        JobResult result = job.await(Duration.ofMinutes(1));

        long doubled = result.metrics().sum("double", m -> m.recordsOut());
        long pauses = result.metrics().tasks().stream().mapToLong(TaskMetrics::sourcePauses).sum();
        // end::watch[]
        assertThat(now.tasks()).as("every task reports while the job runs")
                .extracting(TaskMetrics::task).containsExactlyInAnyOrderElementsOf(
                        result.metrics().tasks().stream().map(TaskMetrics::task).toList());
        assertThat(doubled).isEqualTo(1_000_000);
        assertThat(sink.size()).isEqualTo(1_000_000);
        assertThat(result.metrics().tasks()).as("only source tasks pause for backpressure")
                .filteredOn(t -> !t.task().startsWith("numbers")).allMatch(t -> t.sourcePauses() == 0);
        assertThat(pauses).isEqualTo(result.metrics().tasks().stream()
                .filter(t -> t.task().startsWith("numbers")).mapToLong(TaskMetrics::sourcePauses).sum());
        assertThat(result.metrics().channels()).allMatch(c -> c.highWater() <= c.capacity());
    }
}
