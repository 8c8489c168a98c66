package io.millrace.bench.millrace;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.functions.Collector;
import io.millrace.api.functions.KeyedProcessFunction;
import io.millrace.api.functions.RuntimeContext;
import io.millrace.api.metrics.CheckpointMetrics;
import io.millrace.api.metrics.OperatorMetrics;
import io.millrace.api.sink.Sink;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.sink.SinkWriter;
import io.millrace.api.state.ValueState;
import io.millrace.api.state.ValueStateDescriptor;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.bench.workload.BenchOptions;
import io.millrace.bench.workload.Report;
import io.millrace.connector.generator.GeneratorSource;
import io.millrace.rocksdb.RocksDbConfig;
import io.millrace.rocksdb.RocksDbStateBackends;
import io.millrace.runtime.local.LocalExecutor;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * State much larger than the heap, as a job (issue 4): {@code --keys} × {@code --passes} indices from the generator,
 * keyed by {@code index % keys}, counted per key in value state on RocksDB with checkpoints on; a key whose count
 * reaches {@code passes} sends one record to a counting sink. The job is correct when the sink saw exactly
 * {@code keys} such records and no count ever went past {@code passes} (then every index was counted once).
 * Prints one {@code LARGE_STATE} line: wall time, events per second, peak RSS, peak disk of the RocksDB working
 * directories and of the checkpoint directory, and the checkpoints taken (count, largest, mean duration).
 *
 * <p>Options: {@code --keys} (20M), {@code --passes} (2), {@code --parallelism} (2), {@code --checkpoint-interval-ms}
 * (10000), {@code --managed-memory} (256mb), {@code --dir} (a new temporary directory, deleted afterwards), {@code --rate}
 * (events per second, 0 for as fast as the job goes; a paced run lasts long enough for checkpoints to be taken). Meant
 * for a small heap: {@code ./millrace-bench --suite large-state} runs it with {@code -Xmx256m}.
 */
public final class LargeState {
    /** Keys whose count reached the number of passes, and counts that went past it; this JVM's job only. */
    static final AtomicLong complete = new AtomicLong();
    static final AtomicLong overCounted = new AtomicLong();

    private LargeState() {}

    /** What one run measured. */
    record Outcome(long keys, long events, double seconds, long complete, long overCounted, long peakRssMb, long peakStateDiskMb,
            long peakCheckpointDiskMb, List<CheckpointMetrics> checkpoints) {
        boolean correct() {
            return complete == keys && overCounted == 0;
        }
    }

    public static void main(String[] args) throws Exception {
        Outcome o = run(options(args), System.err);
        System.out.println(line(o));
        System.exit(o.correct() ? 0 : 1);
    }

    static Map<String, String> options(String... args) {
        Map<String, String> o = new LinkedHashMap<>(Map.of("keys", "20M", "passes", "2", "parallelism", "2",
                "checkpoint-interval-ms", "10000", "managed-memory", "256mb", "dir", "", "rate", "0"));
        for (int k = 0; k + 1 < args.length; k += 2) {
            String name = args[k].replaceFirst("^--", "");
            if (!o.containsKey(name)) {
                throw new IllegalArgumentException("unknown option " + args[k] + "; known: " + o.keySet());
            }
            o.put(name, args[k + 1]);
        }
        return o;
    }

    /** Runs the job to its end, printing progress every 10 s to {@code progress}. */
    static Outcome run(Map<String, String> o, PrintStream progress) throws Exception {
        long keys = BenchOptions.parseCount(o.get("keys"));
        int passes = Integer.parseInt(o.get("passes"));
        boolean temporary = o.get("dir").isEmpty();
        Path dir = temporary ? Files.createTempDirectory("millrace-large-state") : Files.createDirectories(Path.of(o.get("dir")));
        Path stateDir = dir.resolve("rocksdb");
        Path checkpointDir = dir.resolve("checkpoints");
        try {
            PipelineConfig config = new PipelineConfig().parallelism(Integer.parseInt(o.get("parallelism")))
                    .stateBackend("rocksdb")
                    .stateBackendOption(RocksDbConfig.MANAGED_MEMORY_OPTION, o.get("managed-memory"))
                    .stateBackendOption(RocksDbConfig.DIRECTORY_OPTION, stateDir.toString());
            long interval = Long.parseLong(o.get("checkpoint-interval-ms"));
            if (interval > 0) {
                config.checkpoints().directory(checkpointDir).interval(Duration.ofMillis(interval));
            }
            complete.set(0);
            overCounted.set(0);
            Pipeline pipeline = build(config, keys, passes, Double.parseDouble(o.get("rate")));
            long start = System.nanoTime();
            JobHandle job = pipeline.executeAsync("large-state");
            long peakState = 0;
            long peakCheckpoints = 0;
            long nextReport = start + 10_000_000_000L;
            // sample the disk every 200 ms until the job ends (await returns at once when it does)
            while (job.await(Duration.ofMillis(200)) == null) {
                peakState = Math.max(peakState, bytesUnder(stateDir));
                peakCheckpoints = Math.max(peakCheckpoints, bytesUnder(checkpointDir));
                if (System.nanoTime() >= nextReport) {
                    nextReport += 10_000_000_000L;
                    progress.printf(Locale.ROOT, "large-state: %.0f s, %,d events counted, %,d keys complete, state %d MB, checkpoints %d MB, RSS %d MB, load %s%n",
                            (System.nanoTime() - start) / 1e9, job.metrics().sum("counts", OperatorMetrics::recordsIn), complete.get(),
                            peakState >> 20, peakCheckpoints >> 20, Report.peakRssMb(), CheckpointCost.load());
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            List<CheckpointMetrics> done = job.metrics().checkpoints().stream().filter(CheckpointMetrics::completed).toList();
            return new Outcome(keys, keys * passes, seconds, complete.get(), overCounted.get(), Report.peakRssMb(),
                    peakState >> 20, peakCheckpoints >> 20, done);
        } finally {
            if (temporary) {
                CheckpointCost.delete(dir);
            }
        }
    }

    /** The pipeline: generator (keys × passes indices, paced when {@code rate} > 0) → keyBy(index % keys) → count → sink. */
    static Pipeline build(PipelineConfig config, long keys, int passes, double rate) {
        Pipeline pipeline = Pipeline.create(config);
        GeneratorSource.Builder<Long> indices = GeneratorSource.<Long>builder(i -> i).count(keys * passes);
        if (rate > 0) {
            indices.ratePerSecond(rate);
        }
        pipeline.fromSource(indices.build(), WatermarkStrategy.<Long>noWatermarks(), "indices")
                .uid("indices")
                .keyBy(i -> i % keys)
                .process(new Count(passes)).name("counts").uid("counts")
                .sinkTo(new Tally()).name("tally");
        return pipeline;
    }

    static String line(Outcome o) {
        long largest = o.checkpoints.stream().mapToLong(CheckpointMetrics::bytes).max().orElse(0);
        double meanMs = o.checkpoints.stream().mapToLong(CheckpointMetrics::durationMillis).average().orElse(0);
        return String.format(Locale.ROOT, "LARGE_STATE keys=%d events=%d seconds=%.1f eps=%.0f correct=%s complete=%d over_counted=%d "
                        + "max_heap_mb=%d peak_rss_mb=%d peak_state_disk_mb=%d peak_checkpoint_disk_mb=%d checkpoints=%d "
                        + "largest_checkpoint_mb=%d mean_checkpoint_ms=%.0f load=%s",
                o.keys, o.events, o.seconds, o.events / o.seconds, o.correct(), o.complete, o.overCounted,
                Runtime.getRuntime().maxMemory() >> 20, o.peakRssMb, o.peakStateDiskMb, o.peakCheckpointDiskMb, o.checkpoints.size(),
                largest >> 20, meanMs, CheckpointCost.load());
    }

    /** Bytes of the regular files under {@code dir}, 0 if it does not exist; files vanishing meanwhile are skipped. */
    static long bytesUnder(Path dir) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.mapToLong(p -> p.toFile().isFile() ? p.toFile().length() : 0).sum();
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof NoSuchFileException) {
                return 0; // a directory deleted during the walk (a checkpoint discarded, a memtable flushed): next sample
            }
            throw e;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Counts per key; emits the key once its count reaches {@code passes}, and {@code -1 - key} past it. Task thread. */
    static final class Count extends KeyedProcessFunction<Long, Long, Long> {
        private static final long serialVersionUID = 1L;
        private final int passes;
        private transient ValueState<Long> count;

        Count(int passes) {
            this.passes = passes;
        }

        @Override
        public void open(RuntimeContext context) {
            count = context.state().getState(new ValueStateDescriptor<>("count"));
        }

        @Override
        public void processElement(Long index, Context<Long> ctx, Collector<Long> out) {
            Long c = count.value();
            long n = c == null ? 1 : c + 1;
            count.update(n);
            if (n == passes) {
                out.collect(ctx.currentKey());
            } else if (n > passes) {
                out.collect(-1 - ctx.currentKey());
            }
        }
    }

    /** Adds to {@link #complete} and {@link #overCounted}; keeps nothing. */
    static final class Tally implements Sink<Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public SinkWriter<Long> createWriter(SinkContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(Long key, long timestamp) {
                    (key >= 0 ? complete : overCounted).incrementAndGet();
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }
}
