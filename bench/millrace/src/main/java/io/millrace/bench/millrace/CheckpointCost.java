package io.millrace.bench.millrace;

import io.millrace.api.JobHandle;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.metrics.CheckpointMetrics;
import io.millrace.api.metrics.JobMetrics;
import io.millrace.api.sink.Sink;
import io.millrace.api.sink.SinkContext;
import io.millrace.api.sink.SinkWriter;
import io.millrace.bench.workload.BenchOptions;
import io.millrace.bench.workload.Input;
import io.millrace.runtime.local.LocalExecutor;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What checkpoints cost, on the heap backend with parallelism 2 (issue 3). Prints one {@code CHECKPOINT_COST} line
 * per figure on standard output:
 *
 * <ul>
 * <li>{@code --part throughput}: q5 over the same events with checkpoints off, every 10 s and every 1 s, in
 *     {@code --rounds} rounds (modes interleaved); events per second of each run, and per interval the mean cost
 *     relative to off;</li>
 * <li>{@code --part state}: {@link KeyedCounts} with {@code --keys} keys of {@code --pad} bytes each; once every key
 *     holds state, the used heap it adds and {@code --checkpoints} requested checkpoints (duration, bytes, longest
 *     alignment and synchronous pause) while the input keeps running;</li>
 * <li>{@code --part recovery}: see {@link RecoveryTime};</li>
 * <li>{@code --part backpressure}: checkpoint durations while a stage of {@code --slow-micros} per record (100)
 *     backpressures the pipeline, after {@code --fill-ms} (3000) of filling, with sized and with fixed channels, see {@link BackpressuredCheckpoints};</li>
 * <li>{@code --part rocksdb} (not part of {@code all}): full against incremental checkpoints of the RocksDB
 *     backend, and the restore time of each, see {@link IncrementalCost}.</li>
 * </ul>
 *
 * Options: {@code --part all|throughput|state|recovery|backpressure|rocksdb} (all), {@code --events} per throughput run (15 M),
 * {@code --rounds} (2), {@code --keys} (8 M), {@code --pad} (64), {@code --checkpoints} (3), {@code --child-heap}
 * (6g, the recovery child's -Xmx); for the rocksdb part {@code --incremental both|true|false} (both),
 * {@code --rate} events per second (0: unlimited) and {@code --pause-ms} between checkpoints (1000). Run with enough
 * heap for the state part (-Xmx6g).
 */
public final class CheckpointCost {
    static final int PARALLELISM = 2;

    private CheckpointCost() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> o = options(args);
        run(o, System.out);
        System.exit(0); // the state part's job is cancelled; nothing else keeps the JVM
    }

    /** Runs the parts {@code o} names, printing the figures to {@code out}. */
    static void run(Map<String, String> o, PrintStream out) throws Exception {
        String part = o.get("part");
        if (part.equals("all") || part.equals("throughput")) {
            throughput(BenchOptions.parseCount(o.get("events")), Integer.parseInt(o.get("rounds")), out);
        }
        if (part.equals("all") || part.equals("state")) {
            state(BenchOptions.parseCount(o.get("keys")), Integer.parseInt(o.get("pad")), Integer.parseInt(o.get("checkpoints")), out);
        }
        if (part.equals("all") || part.equals("recovery")) {
            RecoveryTime.measure(BenchOptions.parseCount(o.get("keys")), Integer.parseInt(o.get("pad")), o.get("child-heap"), out);
        }
        if (part.equals("all") || part.equals("backpressure")) {
            BackpressuredCheckpoints.measure(Long.parseLong(o.get("slow-micros")), Integer.parseInt(o.get("checkpoints")),
                    Long.parseLong(o.get("fill-ms")), out);
        }
        if (part.equals("rocksdb")) {
            IncrementalCost.measure(BenchOptions.parseCount(o.get("keys")), Integer.parseInt(o.get("pad")), Double.parseDouble(o.get("rate")),
                    Integer.parseInt(o.get("checkpoints")), Long.parseLong(o.get("pause-ms")), o.get("incremental"), out);
        }
    }

    static Map<String, String> options(String... args) {
        Map<String, String> o = new LinkedHashMap<>(Map.of("part", "all", "events", "15M", "rounds", "2", "keys", "8M", "pad", "64",
                "checkpoints", "3", "child-heap", "6g"));
        o.putAll(Map.of("incremental", "both", "rate", "0", "pause-ms", "1000", "slow-micros", "100", "fill-ms", "3000"));
        for (int k = 0; k + 1 < args.length; k += 2) {
            String name = args[k].replaceFirst("^--", "");
            if (!o.containsKey(name)) {
                throw new IllegalArgumentException("unknown option " + args[k] + "; known: " + o.keySet());
            }
            o.put(name, args[k + 1]);
        }
        return o;
    }

    /**
     * (a) q5 with checkpoints off, every 10 s and every 1 s; modes interleaved so that drifting load hits all.
     * Two costs per interval: in events per second (median over the rounds, against the median with checkpoints
     * off) and in CPU time of this process per event (median likewise), which other processes on the machine
     * disturb far less than wall time.
     */
    static void throughput(long events, int rounds, PrintStream out) throws Exception {
        long[] intervals = {0, 10_000, 1_000};
        double[][] eps = new double[intervals.length][rounds];
        double[][] cpu = new double[intervals.length][rounds];
        // warm-up of every path measured: records, and checkpoints (the first 1 s run was always the slowest without it)
        run(events / 4, 1_000);
        for (int r = 0; r < rounds; r++) {
            for (int m = 0; m < intervals.length; m++) {
                Run run = run(events, intervals[m]);
                eps[m][r] = run.eps;
                cpu[m][r] = run.cpuNanosPerEvent;
                out.printf(Locale.ROOT, "CHECKPOINT_COST part=throughput query=q5 round=%d interval_ms=%d events=%d seconds=%.2f eps=%.0f cpu_ns_per_event=%.1f checkpoints=%d mean_checkpoint_ms=%.0f max_sync_pause_us=%d load=%s%n",
                        r + 1, intervals[m], events, run.seconds, run.eps, run.cpuNanosPerEvent, run.checkpoints, run.meanCheckpointMs, run.maxSyncPauseMicros, load());
            }
        }
        for (int m = 1; m < intervals.length; m++) {
            double offEps = median(eps[0]);
            double offCpu = median(cpu[0]);
            out.printf(Locale.ROOT, "CHECKPOINT_COST part=throughput query=q5 interval_ms=%d median_eps=%.0f off_median_eps=%.0f cost_pct=%.1f median_cpu_ns_per_event=%.1f off_median_cpu_ns_per_event=%.1f cpu_cost_pct=%.1f%n",
                    intervals[m], median(eps[m]), offEps, 100 * (1 - median(eps[m]) / offEps),
                    median(cpu[m]), offCpu, 100 * (median(cpu[m]) / offCpu - 1));
        }
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private record Run(double seconds, double eps, double cpuNanosPerEvent, int checkpoints, double meanCheckpointMs, long maxSyncPauseMicros) {}

    private static Run run(long events, long intervalMs) throws Exception {
        Path dir = Files.createTempDirectory("millrace-ckcost");
        try {
            BenchOptions o = BenchOptions.parse("--query", "q5", "--parallelism", String.valueOf(PARALLELISM),
                    "--checkpoint-interval-ms", String.valueOf(intervalMs));
            Input input = new Input(o.query, events, o.parallelism, o.seed, o.eventRate);
            Pipeline pipeline = MillraceEngine.build(o, input, 0, dir, new Discard<>());
            long cpuStart = processCpuNanos();
            long start = System.nanoTime();
            JobHandle job = new LocalExecutor().submit(pipeline.plan(), "ckcost-q5");
            job.await();
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpuPerEvent = (double) (processCpuNanos() - cpuStart) / events;
            List<CheckpointMetrics> done = job.metrics().checkpoints().stream().filter(CheckpointMetrics::completed).toList();
            double meanMs = done.stream().mapToLong(CheckpointMetrics::durationMillis).average().orElse(0);
            long maxPause = done.stream().mapToLong(CheckpointMetrics::maxSyncPauseMicros).max().orElse(0);
            return new Run(seconds, events / seconds, cpuPerEvent, done.size(), meanMs, maxPause);
        } finally {
            delete(dir);
        }
    }

    /** CPU time used by this process so far (all threads: tasks, checkpoint writer, GC, JIT). */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** (b) checkpoints of a large keyed heap state, requested one after the other while the input runs. */
    static void state(long keys, int pad, int checkpoints, PrintStream out) throws Exception {
        Path dir = Files.createTempDirectory("millrace-ckstate");
        try {
            long before = usedHeapBytes();
            PipelineConfig config = new PipelineConfig().parallelism(PARALLELISM);
            config.checkpoints().directory(dir).periodic(false);
            SampleWatch.highestIndex.set(-1);
            JobHandle job = new LocalExecutor().submit(KeyedCounts.build(config, keys, pad, 1024, 0, new SampleWatch()).plan(), "ckcost-state");
            long fillStart = System.nanoTime();
            SampleWatch.awaitIndex(job, keys); // every key holds state
            double fillSeconds = (System.nanoTime() - fillStart) / 1e9;
            long stateBytes = usedHeapBytes() - before;
            out.printf(Locale.ROOT, "CHECKPOINT_COST part=state keys=%d pad=%d state_mb=%d fill_seconds=%.1f load=%s%n",
                    keys, pad, stateBytes >> 20, fillSeconds, load());
            for (int c = 0; c < checkpoints; c++) {
                long id = job.triggerCheckpoint().get(10, TimeUnit.MINUTES);
                CheckpointMetrics m = checkpoint(job.metrics(), id);
                out.printf(Locale.ROOT, "CHECKPOINT_COST part=state keys=%d checkpoint=%d duration_ms=%d bytes=%d max_sync_pause_us=%d max_alignment_ms=%d load=%s%n",
                        keys, id, m.durationMillis(), m.bytes(), m.maxSyncPauseMicros(), m.maxAlignmentMillis(), load());
            }
            job.cancel();
            job.await();
        } finally {
            delete(dir);
        }
    }

    static CheckpointMetrics checkpoint(JobMetrics metrics, long id) {
        return metrics.checkpoints().stream().filter(c -> c.checkpointId() == id).findFirst()
                .orElseThrow(() -> new IllegalStateException("no metrics for checkpoint " + id));
    }

    /** Heap in use after two full collections. */
    static long usedHeapBytes() {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        System.gc();
        return rt.totalMemory() - rt.freeMemory();
    }

    static String load() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + "/" + f[1] + "/" + f[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Drops every result. */
    static final class Discard<T> implements Sink<T> {
        private static final long serialVersionUID = 1L;

        @Override
        public SinkWriter<T> createWriter(SinkContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(T value, long timestamp) {}

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }
}
