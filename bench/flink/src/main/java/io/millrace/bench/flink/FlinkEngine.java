package io.millrace.bench.flink;

import io.millrace.bench.workload.BenchDriver;
import io.millrace.bench.workload.BenchOptions;
import io.millrace.bench.workload.Engine;
import io.millrace.bench.workload.Event;
import io.millrace.bench.workload.Input;
import io.millrace.bench.workload.Query;
import io.millrace.bench.workload.Reading;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Runs the benchmark queries on a local Flink environment (a MiniCluster in this JVM): same parallelism, same
 * checkpoint interval (exactly-once), heap ("hashmap") or RocksDB state, object reuse on (records passed by
 * reference between chained operators, as in Millrace), watermarks every 10 ms.
 */
public final class FlinkEngine implements Engine {
    /** RocksDB memory, as Millrace's default managed memory. */
    static final MemorySize MANAGED_MEMORY = MemorySize.ofMebiBytes(256);
    /** How often Flink's source readers report their watermarks for alignment. */
    static final Duration ALIGNMENT_UPDATE = Duration.ofMillis(100);

    public static void main(String[] args) throws Exception {
        if (BenchOptions.parse(args).query == Query.TJOIN) {
            System.err.println("flink: tjoin has no DataStream version (Flink's event-time temporal join is in SQL: --engines flink-sql)");
            System.exit(3);
        }
        BenchDriver.main(new FlinkEngine(), args);
    }

    @Override
    public String name() {
        return "flink";
    }

    @Override
    public void run(BenchOptions options, Input input, double ratePerSecond, Path checkpointDir) throws Exception {
        environment(options, input, ratePerSecond, checkpointDir, new CountingSink<>()).execute("bench-" + options.query.id());
    }

    /** A local environment with {@code options.query} over {@code input}, into {@code results}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static StreamExecutionEnvironment environment(BenchOptions options, Input input, double rate, Path checkpointDir, Sink<?> results) {
        StreamExecutionEnvironment env = localEnvironment(options, checkpointDir);
        Query q = options.query;
        if (q.isNexmark()) {
            FlinkNexmarkQueries.build(q, nexmarkEvents(env, options, input, rate), options.bestOfWindow(), options.eventRate).sinkTo((Sink) results).name("results");
        } else {
            FlinkTelemetryQueries.build(q, readings(env, options, input, rate)).sinkTo((Sink) results).name("results");
        }
        return env;
    }

    /**
     * A local environment (MiniCluster) with the benchmark's settings: {@code options.parallelism}, the state backend,
     * managed memory, exactly-once checkpoints every {@code options.checkpointIntervalMs} into {@code checkpointDir},
     * object reuse, watermarks every 10 ms. Shared by both Flink engines (DataStream and SQL).
     */
    static StreamExecutionEnvironment localEnvironment(BenchOptions options, Path checkpointDir) {
        Configuration conf = new Configuration();
        conf.set(StateBackendOptions.STATE_BACKEND, options.backend.equals("rocksdb") ? "rocksdb" : "hashmap");
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MANAGED_MEMORY);
        conf.set(PipelineOptions.OBJECT_REUSE, true);
        conf.set(PipelineOptions.AUTO_WATERMARK_INTERVAL, Duration.ofMillis(10));
        if (options.checkpointIntervalMs > 0) {
            conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
            conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpointDir.resolve("checkpoints").toUri().toString());
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(options.parallelism, conf);
        if (options.checkpointIntervalMs > 0) {
            env.enableCheckpointing(options.checkpointIntervalMs, CheckpointingMode.EXACTLY_ONCE);
        }
        return env;
    }

    /** The Nexmark events of {@code input}, stamped with their event time; the watermark follows it (no disorder). */
    static DataStream<Event> nexmarkEvents(StreamExecutionEnvironment env, BenchOptions options, Input input, double rate) {
        return source(env, input, rate, TypeInformation.of(Event.class),
                aligned(WatermarkStrategy.<Event>forMonotonousTimestamps().withTimestampAssigner((e, ts) -> e.dateTime()), options, "nexmark"),
                "nexmark");
    }

    /** The telemetry readings of {@code input}, stamped with their time; the watermark trails by {@code q}'s bound. */
    static DataStream<Reading> readings(StreamExecutionEnvironment env, BenchOptions options, Input input, double rate) {
        return source(env, input, rate, TypeInformation.of(Reading.class),
                aligned(WatermarkStrategy.<Reading>forBoundedOutOfOrderness(Duration.ofMillis(options.query.watermarkDelayMs()))
                        .withTimestampAssigner((r, ts) -> r.time()), options, "telemetry"), "telemetry");
    }

    /**
     * With {@code --watermark-alignment-ms}: Flink's watermark alignment, the source readers reporting to the
     * coordinator every {@link #ALIGNMENT_UPDATE} (its default interval is 1 s; 100 ms keeps the drift nearer the
     * bound, and a shorter interval costs its readers more pauses).
     */
    private static <T> WatermarkStrategy<T> aligned(WatermarkStrategy<T> watermarks, BenchOptions options, String group) {
        return options.watermarkAlignmentMs > 0
                ? watermarks.withWatermarkAlignment(group, Duration.ofMillis(options.watermarkAlignmentMs), ALIGNMENT_UPDATE)
                : watermarks;
    }

    @SuppressWarnings("unchecked")
    private static <T> DataStream<T> source(StreamExecutionEnvironment env, Input input, double rate, TypeInformation<T> type,
            WatermarkStrategy<T> watermarks, String name) {
        DataGeneratorSource<T> source = new DataGeneratorSource<>(s -> (T) input.record(s), input.count(),
                rate > 0 ? new SharedOriginRateLimit(rate) : RateLimiterStrategy.noOp(), type);
        return env.fromSource(source, watermarks, name).uid(name);
    }
}
