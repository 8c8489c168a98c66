package io.millrace.bench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Runs one engine on one query in this JVM: warm-up runs (for at least {@code --warmup-seconds}), the measured run (as fast as possible; {@code --runs N}:
 * N of them, the median reported), then the
 * latency run (at half the sustainable rate, after a paced warm-up run just like it; its first second is not timed;
 * see {@link #latencyRate}),
 * and prints the {@code RESULT} line on standard output; details go to standard error. The time counted runs from the first event generated to the last result at the sink.
 */
public final class BenchDriver {
    /**
     * The first second of a latency run is not timed: a job's start takes branches once per job (a reader's first
     * poll, the shared pacing origin), which deoptimize the compiled source loop, and until it is compiled again one
     * source subtask falls behind the other by tens of milliseconds, which the probe would count as latency.
     */
    static final long SETTLE_SECONDS = 1;
    private final Engine engine;
    private final BenchOptions options;

    public BenchDriver(Engine engine, BenchOptions options) {
        this.engine = engine;
        this.options = options;
    }

    /** The warm-up run numbered {@code number} (from 1); returns how long it took, in seconds. */
    interface WarmupRun {
        double run(int number) throws Exception;
    }

    /** Runs {@code run} until the runs have taken {@code minSeconds} together, at least once; returns how many ran. */
    static int warmUp(double minSeconds, WarmupRun run) throws Exception {
        double total = 0;
        int runs = 0;
        do {
            runs++;
            total += run.run(runs);
        } while (total < minSeconds);
        return runs;
    }

    /** Entry point for an engine's main class. */
    public static void main(Engine engine, String[] args) throws Exception {
        new BenchDriver(engine, BenchOptions.parse(args)).run();
        System.exit(0);
    }

    public void run() throws Exception {
        Query q = options.query;
        note("%s", Report.machine());
        long events = Interleave.roundCount(options.events, options.parallelism);
        warmUp(options.warmupSeconds, number -> {
            Probe.RunFigures warm = runOnce(options.forWarmup(), options.warmup(), 0, false);
            note("warm-up %d: %,d events, %,d results in %.2f s", number, options.warmup(), warm.results(), warm.seconds());
            return warm.seconds();
        });

        double[] seconds = new double[options.runs];
        long fewest = Long.MAX_VALUE;
        long most = Long.MIN_VALUE;
        for (int r = 0; r < options.runs; r++) {
            long cpuBefore = processCpuNanos();
            Probe.RunFigures measured = runOnce(options, events, 0, false);
            long cpu = processCpuNanos() - cpuBefore;
            seconds[r] = measured.seconds();
            fewest = Math.min(fewest, measured.results());
            most = Math.max(most, measured.results());
            note("measured%s: %,d events, %,d results in %.3f s: %,.0f events/s; %s",
                    options.runs > 1 ? " " + (r + 1) + "/" + options.runs : "", events, measured.results(), measured.seconds(),
                    events / measured.seconds(), cpuBefore < 0 ? "process CPU unknown (this JVM does not tell)"
                            : String.format(java.util.Locale.ROOT, "process CPU %.2f s, %.1f ns per event", cpu / 1e9, (double) cpu / events));
        }
        double median = median(seconds);
        double eps = events / median;
        if (options.runs > 1) {
            note("median of %d measured runs: %.3f s: %,.0f events/s", options.runs, median, eps);
        }

        String p99 = "-";
        if (options.latencySeconds > 0) {
            double rate = latencyRate(eps, events, options, count -> {
                Probe.RunFigures longer = runOnce(options, count, 0, false);
                note("sustained: %,d events, %,d results in %.3f s: %,.0f events/s", count, longer.results(), longer.seconds(),
                        count / longer.seconds());
                return longer.seconds();
            });
            long n = latencyEvents(rate, options);
            // The same paced run twice, the first not reported: the paced run takes code paths the unpaced ones did
            // not (the rate limit, idle waits, the latency probe, the end of the untimed second, checkpoints at
            // that rate), and the compiler's first meeting with each deoptimizes the source loop for tens of ms.
            Probe.RunFigures pacedWarm = runOnce(options, n, rate, true);
            note("paced warm-up at %,.0f events/s: p99 %.3f ms (not reported)", rate, pacedWarm.latencies().quantile(0.99) / 1000.0);
            Probe.RunFigures paced = runOnce(options, n, rate, true);
            LatencyHistogram h = paced.latencies();
            note("latency at %,.0f events/s: %,d events, %,d samples, p50 %.3f ms, p99 %.3f ms, max %.3f ms", rate, n,
                    h.total(), h.quantile(0.5) / 1000.0, h.quantile(0.99) / 1000.0, h.quantile(1.0) / 1000.0);
            if (h.total() > 0) {
                p99 = String.format(java.util.Locale.ROOT, "%.3f", h.quantile(0.99) / 1000.0);
            }
        }
        System.out.println(Report.result(engine.name(), options.queryLabel(), options.backend, events, median, eps, p99, Report.peakRssMb(),
                fewest == most ? Long.toString(most) : fewest + ".." + most));
        System.out.flush();
    }

    /** An unpaced run of a given number of events; returns how long it took, in seconds. */
    interface SustainRun {
        double run(long events) throws Exception;
    }

    /** The events of a latency run at {@code rate}: its untimed first second and its timed seconds. */
    static long latencyEvents(double rate, BenchOptions options) {
        return Interleave.roundCount((long) (rate * (SETTLE_SECONDS + options.latencySeconds)), options.parallelism);
    }

    /**
     * The latency run's input rate: {@code --latency-rate} when given, else half the sustainable rate. The measured
     * runs' rate ({@code measuredEps} over {@code measuredEvents}) is sustainable only for as many events as they had:
     * when the latency run at half that rate would take more (a fast query's measured run may last half a second, its
     * latency run six seconds), an unpaced run of that many events measures the rate again, and the lower of the two
     * is the sustainable one. Where state grows with the input (q3 keeps every person it saw) a short run's rate is
     * more than the engine keeps up over the latency run's events; half of it would not be half of what it sustains.
     */
    static double latencyRate(double measuredEps, long measuredEvents, BenchOptions options, SustainRun longer) throws Exception {
        if (options.latencyRate > 0) {
            return options.latencyRate;
        }
        long n = latencyEvents(measuredEps / 2, options);
        if (n <= measuredEvents) {
            return measuredEps / 2;
        }
        double sustained = n / longer.run(n);
        return Math.min(measuredEps, sustained) / 2;
    }

    private Probe.RunFigures runOnce(BenchOptions run, long events, double rate, boolean latency) throws Exception {
        Input input = new Input(run.query, events, run.parallelism, run.seed, run.eventRate);
        long span = latency ? input.lastEventTime() - BenchOptions.BASE_TIME + 1 : 0;
        Probe.reset(options.query, BenchOptions.BASE_TIME, span, latency ? SETTLE_SECONDS * 1_000_000_000L : 0);
        Path dir = Files.createTempDirectory("millrace-bench-" + engine.name() + "-");
        try {
            engine.run(run, input, rate, dir);
        } finally {
            deleteTree(dir);
        }
        Probe.RunFigures f = Probe.collect();
        // a short latency run may close no result (ttl: keys need 10 events); then p99 is "-", not a failure
        if (!latency && (f.firstEventNanos() == 0 || f.lastResultNanos() == 0)) {
            throw new IllegalStateException("run of " + options.query.id() + " on " + engine.name()
                    + " produced no measurable interval: first event " + f.firstEventNanos() + ", last result " + f.lastResultNanos());
        }
        return f;
    }

    /**
     * The middle run time; of an even count the longer of the two middle ones, so that the report never rounds in
     * the engine's favour.
     */
    static double median(double[] seconds) {
        double[] sorted = seconds.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /**
     * CPU time of this whole JVM so far (every thread: the engine's, its compilers', the collector's), in ns, or -1
     * where the JVM has no such figure. Over a measured run it tells time spent from time waited for a core
     * (docs/benchmarks.md, "The command").
     */
    static long processCpuNanos() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    static void note(String format, Object... args) {
        System.err.printf(java.util.Locale.ROOT, format + "%n", args);
    }

    /**
     * Deletes a run's directory. An engine may still be removing its own files there (Flink discards old
     * checkpoints asynchronously after the job ended): a file that vanishes during the walk is walked again.
     */
    static void deleteTree(Path dir) throws IOException {
        for (int attempt = 1; Files.exists(dir) && attempt <= 10; attempt++) {
            try (Stream<Path> paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (java.io.UncheckedIOException e) {
                if (!(e.getCause() instanceof java.nio.file.NoSuchFileException) || attempt == 10) {
                    throw e.getCause();
                }
            }
        }
    }
}
