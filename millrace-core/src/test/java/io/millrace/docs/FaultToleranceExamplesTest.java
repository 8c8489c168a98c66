package io.millrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.millrace.api.DataStream;
import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.RestartStrategy;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.connector.file.LineEncoder;
import io.millrace.connector.file.TransactionalFileSink;
import io.millrace.connector.generator.GeneratorSource;
import java.nio.file.Files;
import java.nio.file.Path;
import io.millrace.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
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

    /** Version 1 and 2 of a job: a per-machine running count, the second with a filter in front. */
    static Pipeline machineCounts(PipelineConfig config, long ticks, boolean version2, Path out) {
        Pipeline pipeline = Pipeline.create(config);
        DataStream<Tick> input = pipeline.fromSource(GeneratorSource.builder(i -> new Tick(i, i % 8)).count(ticks)
                .ratePerSecond(20_000).build(), WatermarkStrategy.noWatermarks(), "ticks").uid("ticks");
        if (version2) {
            input = input.filter(t -> t.machine() >= 0).name("sanity check");
        }
        input.keyBy(Tick::machine).process(new TicksSoFar()).uid("ticks-so-far")
                .sinkTo(TransactionalFileSink.of(out, TEXT)).uid("counts");
        return pipeline;
    }

    static final LineEncoder<String> TEXT = new LineEncoder<>() {
        @Override
        public String extension() {
            return "txt";
        }

        @Override
        public void encode(String value, StringBuilder line) {
            line.append(value);
        }
    };

    /** Emits "machine,n" for the n-th tick of a machine. */
    static final class TicksSoFar extends KeyedProcessFunction<Long, Tick, String> {
        private transient ValueState<Long> count;

        @Override
        public void open(RuntimeContext context) {
            count = context.state().getState(new ValueStateDescriptor<>("count"));
        }

        @Override
        public void processElement(Tick tick, Context<Long> ctx, Collector<String> out) {
            long n = count.value() == null ? 1 : count.value() + 1;
            count.update(n);
            out.collect(ctx.currentKey() + "," + n);
        }
    }

    @Test
    void savepointThenUpgradeAndRescale() throws Exception {
        Path dir = work.resolve("job");
        Path out = work.resolve("counts");
        long ticks = 40_000;
        PipelineConfig config = new PipelineConfig().parallelism(2);
        config.checkpoints().directory(dir).interval(Duration.ofMillis(200));
        JobHandle job = machineCounts(config, ticks, false, out).executeAsync("machine counts");
        Await.until("some ticks counted", () -> job.metrics().lastCompletedCheckpoint() >= 1);
        // tag::savepoint[]
        // version 1 runs; stop it with a savepoint (the future completes once the job has stopped)
        String savepoint = job.stopWithSavepoint().get(1, TimeUnit.MINUTES);

        // version 2: a new operator in front, 4 subtasks instead of 2; same uids, same maxParallelism
        PipelineConfig upgraded = new PipelineConfig().parallelism(4);
        upgraded.checkpoints()
                .directory(dir)                         // restarts of version 2 resume from here
                .interval(Duration.ofMillis(200))
                .restoreFrom(Path.of(savepoint));       // the first start restores the savepoint
        JobResult result = machineCounts(upgraded, ticks, true, out).execute("machine counts");
        // end::savepoint[]
        assertThat(result.cancelled()).isFalse();
        List<String> lines;
        try (Stream<Path> files = Files.list(out)) {
            lines = files.filter(f -> !f.getFileName().toString().startsWith(".")).flatMap(f -> {
                try {
                    return Files.readAllLines(f).stream();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
        assertThat(lines).hasSize((int) ticks).doesNotHaveDuplicates().contains("3," + ticks / 8).doesNotContain("3," + (ticks / 8 + 1));
    }
}
