package io.millrace.bench.millrace;

import io.millrace.api.DataStream;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.Sink;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.bench.workload.BenchDriver;
import io.millrace.bench.workload.BenchOptions;
import io.millrace.bench.workload.Engine;
import io.millrace.bench.workload.Event;
import io.millrace.bench.workload.Input;
import io.millrace.bench.workload.Query;
import io.millrace.bench.workload.Reading;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.rocksdb.RocksDbConfig;
import io.millrace.rocksdb.RocksDbStateBackends;
import io.millrace.runtime.local.LocalExecutor;
import java.nio.file.Path;
import java.time.Duration;

/** Runs the benchmark queries on Millrace's local executor. {@code main} is the benchmark's Millrace entry point. */
public final class MillraceEngine implements Engine {
    public static void main(String[] args) throws Exception {
        BenchDriver.main(new MillraceEngine(), args);
    }

    @Override
    public String name() {
        return "millrace";
    }

    @Override
    public void run(BenchOptions options, Input input, double ratePerSecond, Path checkpointDir) throws Exception {
        Pipeline pipeline = build(options, input, ratePerSecond, checkpointDir, new CountingSink<>());
        executor(options, checkpointDir).submit(pipeline.plan(), "bench-" + options.query.id()).await();
    }

    /** The local executor of {@code options.backend}: heap, or RocksDB under {@code checkpointDir}. Shared with {@link MillraceSqlEngine}. */
    static LocalExecutor executor(BenchOptions options, Path checkpointDir) {
        return options.backend.equals("rocksdb")
                ? new LocalExecutor(RocksDbStateBackends.factory(RocksDbConfig.defaults().withBaseDirectory(checkpointDir.resolve("rocksdb"))))
                : new LocalExecutor();
    }

    /**
     * An empty pipeline with the benchmark's settings: {@code options.parallelism}, exactly-once checkpoints every
     * {@code options.checkpointIntervalMs} into {@code checkpointDir}. Shared with {@link MillraceSqlEngine}.
     */
    static Pipeline pipeline(BenchOptions options, Path checkpointDir) {
        PipelineConfig config = new PipelineConfig().parallelism(options.parallelism);
        if (options.checkpointIntervalMs > 0) {
            config.checkpoints().directory(checkpointDir.resolve("checkpoints")).interval(Duration.ofMillis(options.checkpointIntervalMs));
        }
        return Pipeline.create(config);
    }

    /** The Nexmark events of {@code input}, stamped with their time; monotonous watermarks, aligned as the options say. */
    static DataStream<Event> nexmarkEvents(Pipeline pipeline, BenchOptions options, Input input, double rate) {
        return source(pipeline, input, rate,
                aligned(WatermarkStrategy.<Event>monotonous().withTimestampAssigner((e, ts) -> e.dateTime()), options, "nexmark"), "nexmark");
    }

    /** The telemetry readings of {@code input}, stamped with their time; the watermark trails by the query's bound. */
    static DataStream<Reading> readings(Pipeline pipeline, BenchOptions options, Input input, double rate) {
        WatermarkStrategy<Reading> w = WatermarkStrategy.<Reading>boundedOutOfOrderness(Duration.ofMillis(options.query.watermarkDelayMs()))
                .withTimestampAssigner((r, ts) -> r.time());
        return source(pipeline, input, rate, aligned(w, options, "telemetry"), "telemetry");
    }

    /** The pipeline of {@code options.query} over {@code input}, into {@code results}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Pipeline build(BenchOptions options, Input input, double ratePerSecond, Path checkpointDir, Sink<?> results) {
        Pipeline pipeline = pipeline(options, checkpointDir);
        Query q = options.query;
        if (q.isNexmark()) {
            NexmarkQueries.build(q, nexmarkEvents(pipeline, options, input, ratePerSecond), options.bestOfWindow(), options.eventRate)
                    .sinkTo((Sink) results).name("results");
        } else {
            TelemetryQueries.build(q, readings(pipeline, options, input, ratePerSecond))
                    .sinkTo((Sink) results).name("results");
        }
        return pipeline;
    }

    private static <T> WatermarkStrategy<T> aligned(WatermarkStrategy<T> watermarks, BenchOptions options, String group) {
        return options.watermarkAlignmentMs > 0
                ? watermarks.withWatermarkAlignment(group, Duration.ofMillis(options.watermarkAlignmentMs))
                : watermarks;
    }

    @SuppressWarnings("unchecked")
    private static <T> DataStream<T> source(Pipeline pipeline, Input input, double rate, WatermarkStrategy<T> watermarks, String name) {
        GeneratorSource.Builder<T> b = GeneratorSource.<T>builder(s -> (T) input.record(s))
                .count(input.count());
        if (rate > 0) {
            b.ratePerSecond(rate);
        }
        return pipeline.fromSource(b.build(), watermarks, name).uid(name);
    }
}
